import Foundation
import Testing

/// A flaky test whose read races the cache's fill and loses with the chance `$FLAKE_PROBABILITY`
/// (none without it), drawn from `$FLAKE_SEED` and the run's number, so that a seeded trial
/// repeats exactly; and its twin, which waits for the fill: the cause removed.
@Suite struct CacheRaceTests {
    @Test func readRacesTheFill() {
        let cache = Cache()
        if !losesTheRace() { cache.fill() }
        #expect(cache.value == "ready", "the cache was read before it was filled")
    }

    @Test func readAwaitsTheFill() {
        let cache = Cache()
        cache.fill()
        #expect(cache.value == "ready", "the cache was read before it was filled")
    }
}

final class Cache {
    private(set) var value: String?

    func fill() { value = "ready" }
}

/// Whether this run's read loses the race: a draw under `$FLAKE_PROBABILITY`, the draw taken from
/// `$FLAKE_SEED` and the run's number since `$RETRIED_MARKERS` was made.
private func losesTheRace() -> Bool {
    guard let probability = environment("FLAKE_PROBABILITY").flatMap(Double.init), probability > 0 else {
        return false
    }
    let seed = environment("FLAKE_SEED").flatMap(UInt64.init) ?? 0
    let run = UInt64(runNumber("readRacesTheFill") ?? 1)
    return Double(splitMix(seed &* 0x1_0000_0000 &+ run) >> 11) / Double(1 << 53) < probability
}

/// SplitMix64's output for a state: a well-mixed 64-bit draw.
private func splitMix(_ state: UInt64) -> UInt64 {
    var z = state &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
