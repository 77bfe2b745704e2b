import Foundation
import TestLedger
import XCTest

/// XCTest cases for `record --retries`: one fails on its first run only, one always fails when
/// `RETRIED_ALWAYS_FAILS=1` (else it is skipped), and two pass. With `RETRIED_CRASH=1`, one
/// crashes its process on its first run, and two that run before it (XCTest runs them in the
/// order of their names) fail first: one then crashes on its second run, ahead of the other.
final class RetriedXCTests: XCTestCase {
    func testFailsOnce() {
        let first = isFirstRun("testFailsOnce")
        TestLedger.activity(first ? "First try" : "Retry") {
            TestLedger.capture(verifier: "FakeClient", fields: ["firstRun": .bool(first)])
        }
        XCTAssertFalse(first, "fails on its first run only")
    }

    /// Its name starts like the one above: a retry's pattern must not select it.
    func testFailsOnceNeighbour() {
        XCTAssertTrue(true)
    }

    func testAlwaysFails() throws {
        guard environment("RETRIED_ALWAYS_FAILS") == "1" else { throw XCTSkip("fails on request") }
        XCTFail("fails every time")
    }

    func testBeforeTheCrashA_failsThenCrashes() {
        guard environment("RETRIED_CRASH") == "1" else { return }
        switch runNumber("testBeforeTheCrashA_failsThenCrashes") {
        case 1: XCTFail("fails on its first run")
        case 2: fatalError("crashes on its second run")
        default: break
        }
    }

    func testBeforeTheCrashB_failsOnce() {
        guard environment("RETRIED_CRASH") == "1" else { return }
        XCTAssertFalse(isFirstRun("testBeforeTheCrashB_failsOnce"), "fails on its first run only")
    }

    func testCrashesOnce() {
        if environment("RETRIED_CRASH") == "1", isFirstRun("testCrashesOnce") {
            fatalError("crashes on its first run only")
        }
    }

    func testPasses() {
        XCTAssertEqual(1 + 1, 2)
    }
}
