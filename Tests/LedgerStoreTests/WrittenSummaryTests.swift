import Foundation
import GRDB
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerStore

/// A run new to an ingest is summarised from what the ingest wrote, without reading its results
/// back; whatever the input's order and repeats, the stored summary must be the one its stored
/// results give.
@Suite struct WrittenSummaryTests {
    /// Every run's stored summary against one read from its results.
    func expectSummariesMatchResults(_ ledger: TemporaryLedger, _ comment: Comment) throws {
        try ledger.database.writer.read { db in
            let runs = try Int64.fetchAll(db, sql: "SELECT id FROM run ORDER BY id")
            #expect(!runs.isEmpty)
            for run in runs {
                let row = try #require(
                    try Row.fetchOne(
                        db,
                        sql:
                            "SELECT tests, failed, outcomes, seconds, concurrent, load FROM run_summary WHERE runId = ?",
                        arguments: [run]), comment)
                let stored = RunSummary(
                    outcomes: [UInt8](row[2] as Data), seconds: [UInt8](row[3] as Data), failed: row[1],
                    concurrent: row[4], load: row[5])
                let read = try RunSummary.read(run: run, in: db)
                #expect(stored == read, comment)
                #expect(row[0] as Int == read.tests, comment)
            }
        }
    }

    @Test func twoRunsInterleavedWithRetriesDetailsAndAttemptsOutOfOrder() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let one = RunScript(run: "00000000-0000-4000-8000-000000000001").start()
        let two = RunScript(run: "00000000-0000-4000-8000-000000000002", at: 1_700_000_100).start()
        var records = one.records + two.records
        // Attempt 2 arrives before attempt 1; failures carry an issue (a detailed attempt).
        records += two.result("A/b", .passed, attempt: 2, duration: 0.3).records.dropFirst()
        records += one.result("A/a", .failed, duration: 0.25).records.dropFirst()
        records += two.result("A/b", .failed, attempt: 1, duration: 0.5).records.dropFirst()
        records += one.result("A/a", .passed, attempt: 2, duration: -1).records.dropFirst()
        records += (0..<150).flatMap { one.pass("B/t\($0)", duration: Double($0) / 7).records.dropFirst() }
        records += one.end().records.suffix(1) + two.end().records.suffix(1)
        try ledger.ingest(records)
        try expectSummariesMatchResults(ledger, "interleaved runs")
    }

    @Test func anAttemptSentTwiceInOneInputKeepsTheFirstStored() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start()
        let first = script.result("A/a", .failed, duration: 1).records.dropFirst()
        let again = script.result("A/a", .passed, duration: 2).records.dropFirst()
        let bulk = (0..<70).flatMap { script.pass("B/t\($0)").records.dropFirst() }
        let bulkAgain = (0..<70).flatMap { script.fail("B/t\($0)").records.dropFirst() }
        try ledger.ingest(script.records + first + bulk + again + bulkAgain + script.end().records.suffix(1))
        try expectSummariesMatchResults(ledger, "repeated attempts")
    }

    @Test func attemptsAfterTheRunsEndAndARunSentInTwoPieces() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start()
        let ended = script.pass("A/a").end()
        try ledger.ingest(ended.records + ended.fail("A/late").records.suffix(3))
        try expectSummariesMatchResults(ledger, "an attempt after run.end")
        try ledger.database.ingest(keepRunning: true) { sink in
            let open = RunScript(run: "00000000-0000-4000-8000-0000000000aa").start().pass("A/a")
            for record in open.with(.testStart(.init(at: 1_700_000_001, test: "A/open", attempt: 1))).records {
                try sink.consume(record)
            }
        }
        try expectSummariesMatchResults(ledger, "a run still running")
        let rest = RunScript(run: "00000000-0000-4000-8000-0000000000aa", at: 1_700_000_002).start()
        try ledger.ingest(rest.result("A/open", .failed).pass("A/b").end().records)
        try expectSummariesMatchResults(ledger, "the rest of the run")
    }
}
