import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// `report culprit` and `report failures --clusters` from a store that holds tests run side by
/// side: what ran beside each attempt, what failed in its run and what ran before it in its
/// process are read from the stored times, processes and steps, and give the report of the
/// attempts the history was generated from.
@Suite struct ParallelCulpritQueryTests {
    static let history = PlantedParallel(seed: 3, runs: 40, variants: 2)

    @Test(arguments: StoreKind.available) func theStoreSeesWhatRanBesideEachAttempt(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.ingest(streams: Self.history.files())
            for (test, _) in Self.history.tests {
                let stored = try ledger.database.culpritReport(test: test, project: "Cart", runs: 60, since: nil)
                let expected = CulpritAnalysis.report(
                    test: test, configuration: "*", attempts: Self.history.attempts[test] ?? [], runs: 40)
                #expect(stored == expected, "\(test)")
            }
            let overlapping = try #require(Self.history.tests.first { $0.cause == .overlappingTest }?.id)
            let report = try ledger.database.culpritReport(test: overlapping, project: "Cart", runs: 60, since: nil)
            #expect(report.suspects.first?.kind == .overlappingTest)
            #expect(
                report.compared.contains("the tests that ran beside it") && report.compared.contains("the load average")
            )
        }
    }

    @Test(arguments: StoreKind.available) func theStoreClustersTheTestsThatFailTogether(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.ingest(streams: Self.history.files())
            let clusters = try ledger.database.failureClusters(project: "Cart", runs: 60, since: nil)
            var failing: [String: Set<String>] = [:]
            for (test, attempts) in Self.history.attempts {
                failing[test] = Set(attempts.filter(\.isFailing).map(\.run))
            }
            let runs = Self.history.runs.map { ran in
                FailureClustering.Run(
                    id: ran[0].evidence.run, startedAt: ran.map(\.evidence.startedAt).min() ?? 0, host: "mac-1",
                    load: ran.compactMap(\.evidence.load).max())
            }
            #expect(clusters == FailureClustering.clusters(failing: failing, runs: runs))
            #expect(clusters.contains { Set($0.tests) == Set(Self.history.clusters[1]) }, "\(clusters.map(\.tests))")
            let loaded = clusters.first { $0.tests.allSatisfy { $0.hasPrefix("CartTests.loadTests/") } }
            #expect(loaded?.suspect?.kind == .load, "\(clusters)")
        }
    }
}
