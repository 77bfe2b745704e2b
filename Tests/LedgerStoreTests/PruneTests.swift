import Foundation
import GRDB
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct PruneTests {
    static let day = 86_400.0
    static let now = 1_800_000_000.0

    /// Ten daily runs of Shop (A/stable, A/flaky) and one old run of Bank; A/flaky is quarantined.
    func seeded() throws -> TemporaryLedger {
        let ledger = try TemporaryLedger()
        for index in 0..<10 {
            var script = RunScript(project: "Shop", at: Self.now - Double(10 - index) * Self.day).start()
            script = script.pass("A/stable").result("A/flaky", index % 2 == 0 ? .failed : .passed)
            try ledger.ingest(script.end().records)
        }
        try ledger.ingest(
            RunScript(project: "Bank", at: Self.now - 30 * Self.day).start().pass("V/opens").end().records)
        try ledger.database.quarantine([
            QuarantinedTest(project: "Shop", test: "A/flaky", mode: .mute, reason: "flaky", by: "ana", since: 0)
        ])
        return ledger
    }

    func count(_ ledger: TemporaryLedger, _ sql: String) throws -> Int {
        try ledger.database.writer.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    @Test func oldRunsGoInBatchesButAQuarantinedTestsHistoryStays() throws {
        let ledger = try seeded()
        defer { ledger.directory.remove() }
        var calls: [(Int, Int)] = []
        let summary = try ledger.database.prune(before: Self.now - 5.5 * Self.day, project: "Shop", batch: 1) {
            calls.append(($0, $1))
        }
        // Five Shop runs are older: their A/stable results go, their A/flaky results stay with them.
        #expect(summary.results == 5 && summary.runs == 0 && summary.keptRuns == 5, "\(summary)")
        #expect(calls.map(\.0) == [1, 2, 3, 4, 5] && calls.allSatisfy { $0.1 == 5 })
        #expect(try count(ledger, "SELECT count(*) FROM result") == 16)
        #expect(try count(ledger, "SELECT count(*) FROM run") == 11, "Bank is another project")
        // The kept runs' summaries are rebuilt from what is left: one test each.
        #expect(
            try count(
                ledger,
                "SELECT count(*) FROM run_summary s JOIN run ON run.id = s.runId WHERE s.tests = 1 AND project = 'Shop'"
            ) == 5)
        // The quarantined test's history is whole for the flaky report.
        let flaky = try ledger.database.flakyReport(
            project: "Shop", runs: 30, since: nil, thresholds: FlakyThresholds(), now: Self.now)
        #expect(flaky.flaky.first { $0.test == "A/flaky" }?.runs == 10)

        // Every project, once nothing is quarantined: the old runs go whole, with what hangs off them.
        try ledger.database.release(["A/flaky"], project: "Shop", reason: "fixed", by: "ana", at: Self.now)
        let all = try ledger.database.prune(before: Self.now - 5.5 * Self.day, project: nil)
        #expect(all.runs == 6 && all.results == 6 && all.keptRuns == 0, "\(all)")
        #expect(try count(ledger, "SELECT count(*) FROM run") == 5)
        #expect(try count(ledger, "SELECT count(*) FROM run_summary") == 5)
        #expect(try count(ledger, "PRAGMA foreign_key_check") == -1, "no dangling rows")
        #expect(try count(ledger, "SELECT count(*) FROM issue WHERE resultId NOT IN (SELECT id FROM result)") == 0)
    }
}
