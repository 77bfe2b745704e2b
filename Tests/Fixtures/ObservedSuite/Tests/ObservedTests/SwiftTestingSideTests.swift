import Foundation
import TestLedger
import Testing

@Suite struct SwiftTestingSideTests {
    @Test(.tags(.integration)) func recordsItsStepsAgainstItself() async throws {
        try await TestLedger.activity("Fetch") {
            TestLedger.capture(verifier: "FakeClient", fields: ["requests": 1])
            let ok = await eventually("response", timeout: 0.5) { true }
            #expect(ok)
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    @Test func aPlainSwiftTest() {
        #expect(Bool(true))
    }
}
