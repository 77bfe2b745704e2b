import LedgerCore

/// A CI history of tests that run side by side — several at a time in one process (as Swift
/// Testing runs them), in serial worker processes (`swift test --parallel`), or one at a time —
/// in which each flaky test fails for one planted cause: another test ending while it runs, the
/// test before it in its process, a cause it shares with the tests of its cluster, the machine's
/// load, or chance. The generator decides every outcome with its own rules from its own schedule,
/// then writes the attempts as a store would read them. The same seed gives the same history.
public struct PlantedParallel: Sendable {
    /// A planted cause.
    public enum Cause: String, CaseIterable, Sendable {
        /// Fails when its partner ends while it runs (the partner clears state it reads).
        case overlappingTest
        /// Fails when its partner ran just before it in the same serial process.
        case precedingTest
        /// Fails with the other tests of its cluster, in the runs something unrecorded goes wrong.
        case coFailure
        /// Fails when the machine is loaded.
        case load
        /// Fails at random: no suspect.
        case random
    }

    /// How a run runs its tests.
    public enum Layout: CaseIterable, Sendable {
        /// One process, one test at a time.
        case serial
        /// One process, four tests at a time.
        case parallel
        /// Three processes side by side, each one test at a time.
        case workers
    }

    /// One scheduled attempt.
    struct Slot {
        var test: String
        var process: Int
        var start: Double
        var wall: Double
        var cpu: Double
        var preceding: String?
        var failsAt: Double?

        var end: Double { failsAt.map { $0 + 0.01 } ?? start + wall }
        var steps: [Double] { [start + 0.3 * wall, start + 0.6 * wall].filter { $0 < end } }
    }

    /// Each test's id and its planted cause; `nil` for a test that never fails.
    public private(set) var tests: [(id: String, cause: Cause?)] = []
    /// The partner of each overlapping-test and preceding-test test.
    public private(set) var partners: [String: String] = [:]
    /// The planted co-failure clusters.
    public private(set) var clusters: [[String]] = []
    /// Each test's attempts, oldest run first.
    public internal(set) var attempts: [String: [AttemptEvidence]] = [:]
    /// Each run's layout and load.
    public private(set) var runInfo: [(layout: Layout, load: Double)] = []
    /// Each run's attempts in the order their processes started them: within a process, in order.
    public internal(set) var runs: [[(test: String, evidence: AttemptEvidence)]] = []
    /// Each test's failed attempts, as the generator decided them, by run.
    public internal(set) var decided: [String: [Bool]] = [:]

    /// When the first run starts, in seconds since 1970.
    public let epoch: Double
    /// The load above which a run counts as loaded.
    public static let loaded = 6.0

    /// Generates a history.
    /// - Parameters:
    ///   - seed: where the chance comes from.
    ///   - runs: how many runs.
    ///   - variants: how many tests of each cause (and clusters), each with its own strength.
    ///   - epoch: when the first run starts, in seconds since 1970.
    public init(seed: UInt64, runs: Int = 50, variants: Int = 3, epoch: Double = 1_790_000_000) {
        self.epoch = epoch
        let runCount = runs
        var numbers = SeededNumbers(seed: seed)
        var strengths: [String: Double] = [:]
        var work: [String: Double] = [:]
        for variant in 0..<variants {
            let stable = (0..<3).map { "CartTests.StableTests/test\(variant)_\($0)" }
            stable.forEach { tests.append(($0, nil)) }
            for cause in Cause.allCases {
                let count = cause == .coFailure ? 3 : 1
                let ids = (0..<count).map { "CartTests.\(cause.rawValue)Tests/test\(variant)_\($0)" }
                ids.forEach { tests.append(($0, cause)) }
                if cause == .coFailure { clusters.append(ids) }
                if cause == .overlappingTest { partners[ids[0]] = stable[0] }
                if cause == .precedingTest { partners[ids[0]] = stable[1] }
            }
        }
        for test in tests {
            strengths[test.id] = 0.85 + 0.15 * Double(numbers.below(100)) / 100
            work[test.id] = 0.2 + 1.8 * Double(numbers.below(100)) / 100
        }
        for run in 0..<runCount {
            let layout = Layout.allCases[numbers.below(Layout.allCases.count)]
            let load =
                numbers.chance(0.3)
                ? 6.5 + 3 * Double(numbers.below(100)) / 100 : 0.5 + 2.5 * Double(numbers.below(100)) / 100
            runInfo.append((layout, load))
            var slots = schedule(layout: layout, load: load, work: work, run: run, &numbers)
            decide(&slots, layout: layout, load: load, strengths: strengths, &numbers)
            record(slots, run: run, load: load, &numbers)
        }
    }

    private func cause(of test: String) -> Cause? { tests.first { $0.id == test }?.cause }

    /// The run's attempts in its layout: the order shuffled, a preceding-test test put right after
    /// its partner in a third of the runs, and an overlapping-test test's partner made to end
    /// inside it in a third of those where they run side by side.
    private func schedule(
        layout: Layout, load: Double, work: [String: Double], run: Int, _ numbers: inout SeededNumbers
    ) -> [Slot] {
        var order = tests.map(\.id)
        for index in order.indices.reversed() { order.swapAt(index, numbers.below(index + 1)) }
        for (test, partner) in partners.sorted(by: { $0.key < $1.key }) where cause(of: test) == .precedingTest {
            order.removeAll { $0 == test }
            let after = order.firstIndex(of: partner) ?? 0
            var elsewhere = 1 + numbers.below(order.count)
            if elsewhere == after + 1 { elsewhere = after == 0 ? order.count : after }
            order.insert(test, at: numbers.chance(0.35) ? after + 1 : elsewhere)
        }
        let slowdown = 1 + max(0, load - 2) / 2
        let start = epoch + Double(run) * 3_600
        let processes = layout == .workers ? 3 : 1
        let lanes = layout == .parallel ? 4 : 1
        var clocks = Array(repeating: Array(repeating: start, count: lanes), count: processes)
        var slots: [Slot] = []
        var last: [Int: String] = [:]
        for (index, test) in order.enumerated() {
            // Workers take the order in contiguous parts, as SwiftPM hands out test classes.
            let process = index * processes / order.count
            let lane = clocks[process].indices.min { clocks[process][$0] < clocks[process][$1] } ?? 0
            let cpu = (work[test] ?? 1) * (0.8 + 0.4 * Double(numbers.below(100)) / 100)
            // Only a process that runs one test at a time has a test before.
            let slot = Slot(
                test: test, process: 4_000 + 100 * run + process, start: clocks[process][lane], wall: cpu * slowdown,
                cpu: cpu, preceding: lanes == 1 ? last[process] : nil)
            clocks[process][lane] = slot.end + 0.01
            last[process] = test
            slots.append(slot)
        }
        // Within a serial worker a test cannot be moved: its partner ends inside it there only
        // when another worker happens to run it then.
        for (test, partner) in partners.sorted(by: { $0.key < $1.key })
        where cause(of: test) == .overlappingTest && layout == .parallel {
            guard numbers.chance(0.6), let own = slots.firstIndex(where: { $0.test == test }),
                let other = slots.firstIndex(where: { $0.test == partner })
            else { continue }
            let end = slots[own].start + (0.2 + 0.6 * Double(numbers.below(100)) / 100) * slots[own].wall
            slots[other].start = end - slots[other].wall
        }
        return slots
    }
}
