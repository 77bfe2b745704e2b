import Testing

@testable import LedgerImport

/// `xcresulttool`'s localized, rounded durations.
struct XCResultDurationTests {
    @Test(arguments: [
        ("0,012s", 0.012), ("6s", 6), ("0.004s", 0.004), ("1m 5s", 65), ("2h 3m 4s", 7384), ("1d 2h", 93_600),
        ("12ms", 0.012), ("0,00004s", 0.00004),
    ])
    func localizedDurationsAreRead(text: String, seconds: Double) {
        #expect(XCResultDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["", "fast", "5 s", "3x", "1,2,3s"])
    func otherTextIsNoDuration(text: String) {
        #expect(XCResultDuration.seconds(text) == nil)
    }
}
