import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// A run of kind `verification` (the runs that prove a fix) keeps its attempts in the test's
/// history and its detail, and stays out of every report's window.
@Suite struct VerificationRunTests {
    @Test(arguments: StoreKind.available) func aVerificationRunIsHistoryNotAReportsRun(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let suite = RunScript(project: "Shop", revision: "r1", at: 1_000).start().pass("A/fixed").pass("A/other")
            // Newer, and failing on its third attempt: counted, it would make A/fixed flaky.
            let verification = RunScript(project: "Shop", revision: "r2", at: 2_000).start(kind: .verification)
                .result("A/fixed", .passed).result("A/fixed", .passed, attempt: 2).result(
                    "A/fixed", .failed, attempt: 3)
            try ledger.ingest(suite.end().records + verification.end().records)
            let database = ledger.database

            #expect(try database.windowRuns(project: "Shop", count: 30, since: nil).map(\.id) == [suite.run])
            #expect(try database.latestRunID(project: "Shop") == suite.run)
            #expect(try database.latestRunID() == suite.run)
            #expect(try database.projects().map(\.runs) == [1])
            let flaky = try database.flakyReport(
                project: "Shop", runs: 30, since: nil, thresholds: FlakyThresholds(), now: 3_000)
            #expect(flaky.runs == 1 && flaky.flaky.isEmpty, "\(flaky.flaky.map(\.test))")
            let pyramid = try database.pyramidReport(
                project: "Shop", run: nil, since: nil, classifier: LayerClassifier())
            #expect(pyramid.run == suite.run, "\(pyramid)")

            // Kept as history, and shown.
            let detail = try database.testDetail(test: "A/fixed", run: verification.run)
            #expect(detail.attempts == [.ended(.passed), .ended(.passed), .ended(.failed)], "\(detail.attempts)")
            let history = try database.outcomeHistory(project: "Shop", test: "A/fixed", limit: 10)
            #expect(history.map(\.run) == [verification.run, suite.run])
            // Listed among the runs, marked as what it was.
            let listed = try database.runs(project: "Shop", limit: 10)
            #expect(listed.map(\.id) == [verification.run, suite.run] && listed.map(\.kind) == [.verification, nil])
            #expect(try database.run(id: verification.run)?.kind == .verification)
        }
    }
}
