import Foundation
import XCTest

/// Crashes the test process when `FIXTURE_CRASH=1`: what TestLedger recorded before must stay.
final class CrashTests: XCTestCase {
    func testA_passesFirst() {
        XCTAssertTrue(true)
    }

    func testB_crashes() throws {
        guard ProcessInfo.processInfo.environment["FIXTURE_CRASH"] == "1" else { throw XCTSkip("crashes on request") }
        fatalError("the fixture crashes here")
    }
}
