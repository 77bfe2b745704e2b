import LedgerCore

/// The kinds of tests planted in generated CI histories (one run a day, three runs per revision):
/// what a flaky judgement must tell apart.
public enum PlantedKind: String, CaseIterable, Sendable {
    case stable, failsAQuarter, passesOnRetry, rare, fixed, broken, breaksLate

    /// Whether `report flaky` should call a test of this kind flaky.
    public var isFlaky: Bool { [.failsAQuarter, .passesOnRetry, .rare].contains(self) }

    /// Each run's attempts for one test of this kind, oldest run first.
    ///
    /// - Parameters:
    ///   - runs: how many runs.
    ///   - numbers: where the chance comes from.
    /// - Returns: one list per run, of its attempts' outcomes in order.
    public func attempts(runs: Int, _ numbers: inout SeededNumbers) -> [[Outcome]] {
        switch self {
        case .stable:
            return Array(repeating: [.passed], count: runs)
        case .failsAQuarter:
            return (0..<runs).map { _ in numbers.chance(0.25) ? [.failed] : [.passed] }
        case .passesOnRetry:
            return (0..<runs).map { _ in numbers.chance(0.3) ? [.failed, .passed] : [.passed] }
        case .rare:
            // Two failing runs in every 60, at random places (the last block may end past `runs`).
            var failing = Set<Int>()
            for block in stride(from: 0, to: runs, by: 60) {
                while failing.filter({ $0 >= block && $0 < block + 60 }).count < 2 {
                    failing.insert(block + numbers.below(60))
                }
            }
            return (0..<runs).map { failing.contains($0) ? [.failed] : [.passed] }
        case .fixed:
            let fix = 3 * (10 + numbers.below(10))
            return (0..<runs).map { $0 < fix ? [.failed] : [.passed] }
        case .broken:
            return Array(repeating: [.failed], count: runs)
        case .breaksLate:
            let breaks = 3 * (25 + numbers.below(8))
            return (0..<runs).map { $0 < breaks ? [.passed] : [.failed] }
        }
    }
}

/// SplitMix64: the same numbers for the same seed on every platform.
public struct SeededNumbers: Sendable, RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `true` with the given probability.
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// A whole number from 0 up to, not including, `bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
