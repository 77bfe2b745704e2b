import TestLedger
import Testing

/// The flaky test: it reads the pricing flag as it quotes, and fails when another test has
/// flipped it. Its own time says nothing: the catalogue takes as long either way.
@Suite struct QuoteTests {
    @Test func quotesTheFamilyRoom() async throws {
        guard let mode = RaceMode.current else { return }
        try await TestLedger.activity("Load the catalogue") {
            try await RaceMode.pause(30...150)
        }
        try await TestLedger.activity("Quote the family room") {
            let price = Quote.price(squareMetres: 18)
            if mode == "random" {
                #expect(Int.random(in: 0..<10) >= 3, "the quote service timed out")
            } else {
                #expect(price == 450, "the family room is quoted at 450")
            }
            try await RaceMode.pause(10...30)
        }
    }

    @Test func quotesTheKitchen() async throws {
        guard RaceMode.current != nil else { return }
        try await TestLedger.activity("Quote the kitchen") {
            try await RaceMode.pause(20...80)
            #expect(Quote.price(squareMetres: 0) == 0)
        }
    }
}
