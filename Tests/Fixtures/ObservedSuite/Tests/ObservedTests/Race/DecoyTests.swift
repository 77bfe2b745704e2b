import TestLedger
import Testing

/// Tests that touch the same configuration and harm nothing, beside the race in every run.
@Suite struct PricingTests {
    @Test func readsTheFlag() async throws {
        guard RaceMode.current != nil else { return }
        try await TestLedger.activity("Read the flag") {
            _ = RemoteConfig.shared.isOn("newPricing")
            #expect(Quote.price(squareMetres: 0) == 0, "nothing costs nothing, whatever the pricing")
            try await RaceMode.pause(20...150)
        }
    }
}

@Suite struct SettingsTests {
    @Test func savesDarkMode() async throws {
        guard RaceMode.current != nil else { return }
        try await TestLedger.activity("Turn dark mode on") {
            RemoteConfig.shared.set("darkMode", true)
            #expect(RemoteConfig.shared.isOn("darkMode"))
            try await RaceMode.pause(20...120)
        }
        try await TestLedger.activity("Turn it off again") {
            RemoteConfig.shared.reset("darkMode")
            try await RaceMode.pause(10...60)
        }
    }
}

@Suite struct CatalogueTests {
    @Test func listsRooms() async throws {
        guard RaceMode.current != nil else { return }
        try await TestLedger.activity("Load the rooms") {
            try await RaceMode.pause(40...200)
            #expect(Quote.price(squareMetres: 4) >= 100, "a room is priced from the base rate up")
        }
    }
}
