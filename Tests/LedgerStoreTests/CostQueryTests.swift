import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// `report cost` on ``CostHistory``, whose sums are worked out by hand, on both stores.
@Suite struct CostQueryTests {
    @Test(arguments: StoreKind.available)
    func theCostEqualsTheSumsByHand(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            for run in CostHistory.runs() { try ledger.ingest(run.records) }
            let now = CostHistory.start + 20 * 3_600
            let flaky = try ledger.database.flakyReport(
                project: "Demo", runs: 30, since: nil, thresholds: FlakyThresholds(), now: now)
            #expect(flaky.flaky.map(\.test).sorted() == [CostHistory.flaky, CostHistory.retried], "the premise")
            #expect(!flaky.flaky.map(\.test).contains(CostHistory.broken))

            let report = try ledger.database.costReport(
                project: "Demo", runs: 30, since: nil, thresholds: FlakyThresholds(), now: now)
            #expect(report.runs == 10)
            #expect(
                report.tests == [
                    .init(
                        test: CostHistory.flaky, failedAttempts: 1, failedSeconds: 2, lostRuns: 2, lostRunSeconds: 7.5),
                    .init(test: CostHistory.retried, failedAttempts: 2, failedSeconds: 1, reruns: 2, rerunSeconds: 1),
                ])
            #expect(
                report.lostRuns.map(\.run) == [5, 2].map { String(format: "00000000-0000-4000-8000-%012d", $0) },
                "newest first")
            #expect(report.lostRuns.map(\.seconds) == [3.75, 3.75])
            #expect(report.lostRuns.allSatisfy { $0.tests == [CostHistory.flaky] })
            #expect(report.seconds == 11.5)

            let lastFour = try ledger.database.costReport(
                project: "Demo", runs: 4, since: nil, thresholds: FlakyThresholds(), now: now)
            #expect(lastFour.runs == 4 && lastFour.lostRuns.isEmpty, "runs 7 to 10: run 8 also failed A/broken")
        }
    }
}
