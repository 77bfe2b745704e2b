import LedgerTestSupport
import Testing

@testable import LedgerCore

/// The clustering joins tests that fail in the very same runs before anything else, as one group,
/// and keeps each pair of groups' likeness as a running sum: on random suites with lockstep
/// failures, chance overlaps and tests too rare to count, it gives the clusters of the plain
/// average-linkage joining it stands for, written here pair by pair.
@Suite struct FailureClusteringTests {
    /// Average linkage over every pair of tests, recomputed at each step.
    static func reference(failing: [String: Set<String>], runs: Int) -> [Set<String>] {
        let tests = failing.filter { $0.value.count >= FailureClustering.minimumFailures }.keys.sorted()
        let sets = tests.map { failing[$0] ?? [] }
        let family = Double(max(1, tests.count * (tests.count - 1) / 2))
        func likeness(_ a: Int, _ b: Int) -> Double {
            let shared = sets[a].intersection(sets[b]).count
            return shared == 0 ? 0 : Double(shared) / Double(sets[a].union(sets[b]).count)
        }
        func beyondChance(_ a: Set<String>, _ b: Set<String>) -> Bool {
            let shared = a.intersection(b).count
            let p = Separation.fisherRightTail(
                failingWith: shared, failing: a.count, passingWith: b.count - shared, passing: max(0, runs - a.count))
            return p * family <= FailureClustering.significance
        }
        var groups = tests.indices.map { [$0] }
        var unions = sets
        while groups.count > 1 {
            var best: (a: Int, b: Int, likeness: Double)?
            for a in groups.indices {
                for b in groups.indices where b > a {
                    let mean =
                        groups[a].reduce(0.0) { sum, i in groups[b].reduce(sum) { $0 + likeness(i, $1) } }
                        / Double(groups[a].count * groups[b].count)
                    guard mean >= FailureClustering.minimumLikeness - 1e-12, mean > (best?.likeness ?? -1) + 1e-12,
                        beyondChance(unions[a], unions[b])
                    else { continue }
                    best = (a, b, mean)
                }
            }
            guard let (a, b, _) = best else { break }
            groups[a] += groups[b]
            unions[a].formUnion(unions[b])
            groups.remove(at: b)
            unions.remove(at: b)
        }
        return groups.filter { $0.count > 1 }.map { Set($0.map { tests[$0] }) }
    }

    /// A suite of `patterns` failure patterns, each shared by a few tests, some tests failing at
    /// random and some too rarely to count.
    static func suite(seed: UInt64, runs: Int, patterns: Int) -> [String: Set<String>] {
        var random = SeededNumbers(seed: seed)
        var failing: [String: Set<String>] = [:]
        for pattern in 0..<patterns {
            let rate = [0.1, 0.2, 0.35][Int.random(in: 0..<3, using: &random)]
            let shape = Set((0..<runs).filter { _ in Double.random(in: 0..<1, using: &random) < rate }.map { "r\($0)" })
            for member in 0..<Int.random(in: 1...4, using: &random) {
                // Most members fail in lockstep; some miss a run or two of the pattern.
                var runs = shape
                if member > 1 { runs = Set(runs.filter { _ in Double.random(in: 0..<1, using: &random) < 0.85 }) }
                failing["T\(pattern)-\(member)"] = runs
            }
        }
        failing["rare"] = ["r1", "r2"]
        return failing
    }

    /// Two pairs of groups whose mean likeness is equal, which sums in two orders round apart: the
    /// first pair joins, as in exact arithmetic.
    @Test func aTieWithinRoundingGoesToTheFirstPair() {
        let sets: [[Int]] = [
            [0, 1, 3, 5, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18], [0, 1, 3, 5, 7, 8, 9, 11, 13, 14, 15, 16, 17, 18],
            [0, 1, 3, 5, 7, 8, 9, 11, 13, 14, 15, 16, 17, 18], [0, 1, 3, 5, 7, 8, 9, 10, 14, 15, 16, 17, 18],
            [0, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18], [0, 1, 3, 5, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18],
            [0, 1, 3, 5, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18],
            [0, 1, 3, 5, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18],
        ]
        let failing = Dictionary(
            uniqueKeysWithValues: sets.enumerated().map { ("t\($0.offset)", Set($0.element.map { "r\($0)" })) })
        let found = FailureClustering.clusters(
            failing: failing, runs: (0..<19).map { FailureClustering.Run(id: "r\($0)", startedAt: Double($0)) })
        #expect(Set(found.map { Set($0.tests) }) == Set(Self.reference(failing: failing, runs: 19)))
        // In exact arithmetic t0 and t5…t7 tie with t1, t2 and t5…t7 at 14/15; t0 comes first.
        #expect(found.map { Set($0.tests) }.contains(["t0", "t1", "t2", "t5", "t6", "t7"]), "\(found.map(\.tests))")
    }

    @Test(arguments: 0..<6) func joiningLockstepTestsFirstGivesThePlainClusters(seed: Int) {
        let runs = 60
        let failing = Self.suite(seed: UInt64(seed), runs: runs, patterns: 12)
        let found = FailureClustering.clusters(
            failing: failing, runs: (0..<runs).map { FailureClustering.Run(id: "r\($0)", startedAt: Double($0)) })
        let expected = Self.reference(failing: failing, runs: runs)
        #expect(Set(found.map { Set($0.tests) }) == Set(expected), "seed \(seed)")
        #expect(found.contains { $0.tests.count > 2 }, "seed \(seed): no lockstep cluster")
    }
}
