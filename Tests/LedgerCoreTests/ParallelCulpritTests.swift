import LedgerTestSupport
import Testing

@testable import LedgerCore

/// The culprit report and the failure clusters over planted histories of tests run side by side:
/// in one process, in several, and one at a time.
struct ParallelCulpritTests {
    /// Whether `suspect` is what was planted in `test`.
    static func isPlanted(_ suspect: CulpritReport.Suspect?, _ test: String, _ history: PlantedParallel) -> Bool {
        guard let suspect else { return false }
        switch history.tests.first(where: { $0.id == test })?.cause {
        case .overlappingTest: return suspect.kind == .overlappingTest && suspect.name == history.partners[test]
        case .precedingTest: return suspect.kind == .precedingTest && suspect.name == history.partners[test]
        case .coFailure:
            let cluster = history.clusters.first { $0.contains(test) } ?? []
            return suspect.kind == .coFailure && cluster.contains(suspect.name)
        case .load: return suspect.kind == .load
        case .random, nil: return false
        }
    }

    static func report(_ test: String, _ history: PlantedParallel) -> CulpritReport {
        CulpritAnalysis.report(
            test: test, configuration: "*", attempts: history.attempts[test] ?? [], runs: history.runInfo.count)
    }

    @Test func namesThePlantedCauseFirstInNineTestsInTenOfEachKind() {
        var found: [PlantedParallel.Cause: (named: Int, planted: Int)] = [:]
        var missed: [String] = []
        for seed in UInt64(1)...16 {
            let history = PlantedParallel(seed: seed)
            for (test, cause) in history.tests {
                guard let cause, cause != .random else { continue }
                let report = Self.report(test, history)
                let named = Self.isPlanted(report.suspects.first, test, history)
                found[cause, default: (0, 0)].named += named ? 1 : 0
                found[cause, default: (0, 0)].planted += 1
                if !named {
                    missed.append(
                        "\(seed) \(test): \(report.verdict) \(report.failingAttempts) failing; "
                            + report.suspects.prefix(3).map { "\($0.kind) \($0.name) \($0.score)" }.joined(
                                separator: ", "))
                }
            }
        }
        #expect(found.count == 4)
        for (cause, counts) in found {
            #expect(
                Double(counts.named) >= 0.9 * Double(counts.planted),
                "\(cause): \(counts.named) of \(counts.planted)\n\(missed.joined(separator: "\n"))")
        }
    }

    /// A test that never fails gets no suspect; one that fails at random gets one no more often
    /// than the report's 5 % family-wise chance allows: 1.5 of 30 expected, and 4 or fewer 98 times
    /// in 100 (two tests failing together by chance are each the other's suspect).
    @Test func testsThatFailAtRandomOrNeverGetNoSuspect() {
        var suspected: [String] = []
        var random = 0
        for seed in UInt64(1)...10 {
            let history = PlantedParallel(seed: seed)
            for (test, cause) in history.tests where cause == nil || cause == .random {
                let report = Self.report(test, history)
                random += cause == .random ? 1 : 0
                if !report.suspects.isEmpty { suspected.append("\(seed) \(test): \(report.suspects[0].evidence)") }
                #expect(cause == .random || report.suspects.isEmpty)
            }
        }
        #expect(random == 30)
        #expect(suspected.count <= 4, "\(suspected.joined(separator: "\n"))")
    }

    @Test func theGeneratorsOwnFailuresAreTheOnesCompared() {
        let history = PlantedParallel(seed: 7)
        #expect(Set(history.runInfo.map(\.layout)).count == 3, "serial, parallel and worker runs")
        for (test, _) in history.tests {
            let report = Self.report(test, history)
            #expect(report.failingAttempts == (history.decided[test] ?? []).count { $0 }, "\(test)")
        }
    }

    @Test func anOverlappingTestSaysWhatItDidWhileTheFailingAttemptRan() throws {
        let history = PlantedParallel(seed: 2)
        let test = try #require(history.tests.first { $0.cause == .overlappingTest }?.id)
        let first = try #require(Self.report(test, history).suspects.first)
        #expect(first.kind == .overlappingTest)
        #expect(first.evidence.hasPrefix("ended while it ran in "), "\(first.evidence)")
    }

    @Test func aLoadedMachineIsNamedWithItsLoad() throws {
        let history = PlantedParallel(seed: 3)
        let test = try #require(history.tests.first { $0.cause == .load }?.id)
        let report = Self.report(test, history)
        let load = try #require(report.suspects.first { $0.name == "load average" })
        #expect(load.evidence.hasPrefix("the load average was ≥ "), "\(load.evidence)")
        #expect(try #require(load.threshold) > PlantedParallel.loaded - 0.5)
        #expect(report.compared.contains("the load average"))
    }

    @Test func aCoFailingSuspectNamesItsCluster() throws {
        let history = PlantedParallel(seed: 4)
        let cluster = try #require(history.clusters.first)
        let suspects = Self.report(cluster[0], history).suspects.filter { $0.kind == .coFailure }
        let names = suspects.map(\.name).sorted()
        #expect(!names.isEmpty && Set(names).isSubset(of: cluster.dropFirst()))
        #expect(
            suspects.allSatisfy {
                $0.evidence.hasSuffix("fails with \(names.count) test(s): " + names.joined(separator: ", "))
            })
    }

    /// `report flaky`'s brief puts only the first suspect into words: the same brief as the whole
    /// report's, for every test of serial and parallel histories, the first suspect naming the whole
    /// cluster where it is a co-failing test.
    @Test(arguments: [1, 4, 7] as [UInt64]) func theBriefIsTheWholeReportsFirstSuspect(seed: UInt64) {
        var compared = 0
        for (test, attempts) in PlantedParallel(seed: seed).attempts.merging(
            PlantedCulprits(seed: seed).storedAttempts, uniquingKeysWith: { a, _ in a })
        {
            let whole = CulpritAnalysis.report(test: test, configuration: "*", attempts: attempts, runs: 40)
            #expect(
                CulpritAnalysis.brief(test: test, configuration: "*", attempts: attempts, runs: 40) == whole.brief,
                "\(test)")
            if whole.suspects.first?.kind == .coFailure { compared += 1 }
        }
        #expect(compared > 0)
    }

    /// The clusters found against the planted ones: the co-failure clusters, and the tests that
    /// fail under load, which fail together too. Over 16 histories the adjusted Rand index is
    /// 0.8 or more in 15 in 16, and the loaded cluster's suspect is the load in each.
    @Test func recoversTheClusters() throws {
        var indices: [Double] = []
        for seed in UInt64(1)...16 {
            let (index, loaded) = try Self.clusters(seed: seed)
            indices.append(index)
            #expect(loaded?.kind == .load, "the load spike is the loaded cluster's suspect (seed \(seed))")
        }
        #expect(indices.count { $0 >= 0.8 } >= 15, "\(indices)")
        #expect(indices.reduce(0, +) / Double(indices.count) >= 0.9, "\(indices)")
    }

    /// The adjusted Rand index of the clusters found in one history, and the suspect of the one
    /// made of the tests that fail under load.
    static func clusters(seed: UInt64) throws -> (index: Double, loadSuspect: CulpritReport.Suspect?) {
        let history = PlantedParallel(seed: seed)
        var failing: [String: Set<String>] = [:]
        for (test, attempts) in history.attempts {
            failing[test] = Set(attempts.filter(\.isFailing).map(\.run))
        }
        let runs = zip(history.runs, history.runInfo).map { ran, info in
            FailureClustering.Run(id: ran[0].evidence.run, startedAt: ran[0].evidence.startedAt, load: info.load)
        }
        let found = FailureClustering.clusters(failing: failing, runs: runs)
        let planted =
            history.clusters + [history.tests.filter { $0.cause == .load }.map(\.id)]
        // Overlapping-test and preceding-test tests fail only in parallel or only in serial runs:
        // together for a reason, though not one planted as a cluster. They are clustered, but
        // not judged.
        let compared = history.tests.filter { [.coFailure, .load, .random].contains($0.cause) }.map(\.id)
        let loadTests = Set(history.tests.filter { $0.cause == .load }.map(\.id))
        let loaded = try #require(found.first { Set($0.tests).isSubset(of: loadTests) })
        return (adjustedRandIndex(compared, planted, found.map(\.tests)), loaded.suspect)
    }

    @Test func adjustedRandIndexIsOneForTheSameClustersAndNearZeroForUnrelatedOnes() {
        let items = (0..<8).map { "t\($0)" }
        #expect(adjustedRandIndex(items, [["t0", "t1"], ["t2", "t3"]], [["t3", "t2"], ["t1", "t0"]]) == 1)
        #expect(adjustedRandIndex(items, [["t0", "t1", "t2", "t3"]], [["t0", "t4"], ["t1", "t5"]]) < 0.1)
    }
}

/// The adjusted Rand index of two clusterings of `items`: 1 when they agree, near 0 for chance.
/// Items in no cluster are each a cluster of their own.
func adjustedRandIndex(_ items: [String], _ a: [[String]], _ b: [[String]]) -> Double {
    func labels(_ clusters: [[String]]) -> [String: Int] {
        var labels: [String: Int] = [:]
        for (index, cluster) in clusters.enumerated() { cluster.forEach { labels[$0] = index } }
        return labels
    }
    let (left, right) = (labels(a), labels(b))
    var table: [[Int]: Int] = [:]
    for (offset, item) in items.enumerated() {
        table[[left[item] ?? -1 - offset, right[item] ?? -1 - offset], default: 0] += 1
    }
    func pairs(_ n: Int) -> Double { Double(n * (n - 1) / 2) }
    var rows: [Int: Int] = [:]
    var columns: [Int: Int] = [:]
    for (cell, count) in table {
        rows[cell[0], default: 0] += count
        columns[cell[1], default: 0] += count
    }
    let index = table.values.reduce(0) { $0 + pairs($1) }
    let rowPairs = rows.values.reduce(0) { $0 + pairs($1) }
    let columnPairs = columns.values.reduce(0) { $0 + pairs($1) }
    let expected = rowPairs * columnPairs / pairs(items.count)
    let most = (rowPairs + columnPairs) / 2
    return most == expected ? 1 : (index - expected) / (most - expected)
}
