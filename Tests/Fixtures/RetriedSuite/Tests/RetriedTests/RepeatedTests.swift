import Foundation
import Testing
import XCTest

/// Tests for `record --repeat-new`: with `RETRIED_THIRD_RUN_FAILS=1`, one fails on its third run
/// since `$RETRIED_MARKERS` was made; the other always passes.
final class RepeatedXCTests: XCTestCase {
    func testFailsOnItsThirdRun() {
        guard environment("RETRIED_THIRD_RUN_FAILS") == "1" else { return }
        XCTAssertNotEqual(runNumber("testFailsOnItsThirdRun"), 3, "fails on its third run")
    }
}

@Suite struct RepeatedSwiftTests {
    @Test func stable() {
        #expect(2 * 2 == 4)
    }
}
