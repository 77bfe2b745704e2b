import Foundation
import TestLedger
import XCTest

/// Nothing here registers TestLedger: linking the product is enough.
final class RecordedFieldsTests: XCTestCase {
    func testPasses() {
        XCTAssertEqual(1 + 1, 2)
    }

    func testFailsWithAMessage() {
        XCTFail("the total was 3, not 4")  // line 12
    }

    func testIsSkipped() throws {
        throw XCTSkip("needs a device")
    }

    func testSleepsFiftyMilliseconds() {
        Thread.sleep(forTimeInterval: 0.05)
    }
}
