import Foundation
import TestLedger
import Testing

/// Swift Testing's side of `record --retries`: a test and a parameterized test that fail on their
/// first run only, and a passing one.
@Suite struct RetriedSwiftTests {
    @Test func failsOnce() {
        let first = isFirstRun("failsOnce")
        TestLedger.activity(first ? "First try" : "Retry") {
            TestLedger.capture(verifier: "FakeClient", fields: ["firstRun": .bool(first)])
        }
        #expect(!first, "fails on its first run only")
    }

    @Test(arguments: [1, 2]) func failsOnceFor(value: Int) {
        #expect(value == 1 || !isFirstRun("failsOnceFor-\(value)"))
    }

    @Test func passes() {
        #expect(1 + 1 == 2)
    }
}
