import TestLedger
import Testing

/// Turns the new pricing on for part of its run and puts it back when it ends: the race.
@Suite struct RemoteConfigTests {
    @Test func launchRefreshesFlags() async throws {
        guard RaceMode.current != nil else { return }
        defer { RemoteConfig.shared.reset("newPricing") }
        try await TestLedger.activity("Start the app") {
            try await RaceMode.pause(10...60)
        }
        try await TestLedger.activity("Refresh at launch") {
            RemoteConfig.shared.set("newPricing", true)
            try await RaceMode.pause(40...90)
        }
        try await TestLedger.activity("Check the flags") {
            #expect(RemoteConfig.shared.isOn("newPricing"))
            try await RaceMode.pause(10...40)
        }
    }
}
