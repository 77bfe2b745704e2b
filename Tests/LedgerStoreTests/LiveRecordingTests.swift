import Foundation
import GRDB
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// A recorder in the test process writes a test's start first, the rest when it finishes.
@Suite struct LiveRecordingTests {
    @Test func aRunningStartIsCompletedByItsEnd() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start()
        let start = script.with(.testStart(.init(at: 10, test: "A/t")))
        try ledger.database.ingest(keepRunning: true) { sink in
            for record in start.records { try sink.consume(record) }
        }
        #expect(try ledger.database.runs().first?.crashed == 1, "a started test that never ends counts as crashed")
        let finish = RunScript(run: script.run)
            .with(.testStart(.init(at: 10, test: "A/t")))
            .with(.issue(.init(at: 11, test: "A/t", message: "boom", file: "A.swift", line: 3)))
            .with(.testEnd(.init(at: 12, test: "A/t", outcome: .failed, duration: 2)))
        let summary = try ledger.database.ingest { sink in
            for record in finish.records { try sink.consume(record) }
        }
        #expect(summary.results == 1)
        #expect(try ledger.count("result") == 1)
        #expect(try ledger.count("issue") == 1)
        let run = try #require(try ledger.database.runs().first)
        #expect(run.failed == 1)
        #expect(run.crashed == 0)
    }

    @Test func detailsWrittenWhileRunningJoinTheLaterOutcome() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start()
        let details = script.with(
            .predicate(
                .init(
                    at: 20, test: "M.S/f()", name: "shown", expect: .holds, held: true, attempts: 3, waited: 0.03,
                    timeout: 1)))
        for _ in 0..<2 {
            try ledger.database.ingest(keepRunning: true) { sink in
                for record in details.records { try sink.consume(record) }
            }
        }
        let outcome = RunScript(run: script.run)
            .with(.testStart(.init(at: 19, test: "M.S/f()")))
            .with(.testEnd(.init(at: 21, test: "M.S/f()", outcome: .passed, duration: 2)))
        try ledger.database.ingest { sink in
            for record in outcome.records { try sink.consume(record) }
        }
        #expect(try ledger.count("result") == 1)
        #expect(try ledger.count("predicate") == 2)
        let started = try ledger.database.writer.read { db in
            try Double.fetchOne(db, sql: "SELECT startedAt FROM result")
        }
        #expect(started == 19)
        #expect(try ledger.database.runs().first?.passed == 1)
    }
}
