import Foundation
import XCTest

final class SessionTests: XCTestCase {
    func testTokenIsRefreshedBeforeItExpires() {
        let expiry = Date().addingTimeInterval(60)
        XCTAssertLessThan(Date().addingTimeInterval(30), expiry)
    }

    /// With `DEMO_FLAKE=1` this fails every other run: it trips over a file that its previous
    /// run left behind — state leaking between runs.
    func testSignInRemembersTheUser() throws {
        guard ProcessInfo.processInfo.environment["DEMO_FLAKE"] == "1" else { return }
        let leftover = FileManager.default.temporaryDirectory.appendingPathComponent("demo-flake-session")
        if FileManager.default.fileExists(atPath: leftover.path) {
            try FileManager.default.removeItem(at: leftover)
            XCTFail("a session from an earlier run was still signed in")
        } else {
            FileManager.default.createFile(atPath: leftover.path, contents: Data())
        }
    }
}
