import Demo
import Foundation
import XCTest

final class MockURLOpener: URLOpening {
    var canOpen = true
    private(set) var opened: [URL] = []

    func canOpen(_ url: URL) -> Bool { canOpen }
    func open(_ url: URL) { opened.append(url) }
}

final class DocumentOpenerTests: XCTestCase {
    func testOpensDocumentInEditMode() {
        let mock = MockURLOpener()
        XCTAssertTrue(DocumentOpener(opener: mock).open(documentID: "12", mode: .edit))
        XCTAssertEqual(mock.opened.map(\.absoluteString), ["ledgerdocs://documents/12?mode=edit"])
    }

    func testDoesNotOpenWhenNoAppCan() {
        let mock = MockURLOpener()
        mock.canOpen = false
        XCTAssertFalse(DocumentOpener(opener: mock).open(documentID: "12", mode: .view))
        XCTAssertTrue(mock.opened.isEmpty)
    }
}
