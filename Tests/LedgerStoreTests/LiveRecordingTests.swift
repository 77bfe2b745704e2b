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
    @Test func aRepeatedStartContinuesTheOpenAttemptAndKeepsEveryBatch() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        // As the library writes a Swift Testing test: one batch per top-level step, each opening
        // with the test's start, the last one with the name the first left out.
        let test = "M.S/quotes()"
        var script = RunScript().start()
        for (batch, at) in [(1, 10.0), (2, 11.0), (3, 12.0)] {
            var start = LedgerEvent.TestStart(at: at, test: test)
            if batch == 3 { start.name = "quotes()" }
            script = script.with(.testStart(start))
                .with(.activityStart(.init(at: at, test: test, activity: "a\(batch)", name: "Step \(batch)")))
                .with(
                    .activityStart(
                        .init(at: at + 0.1, test: test, activity: "a\(batch)-in", parent: "a\(batch)", name: "Inner"))
                )
                .with(.capture(.init(at: at + 0.2, test: test, verifier: "Spy\(batch)", activity: "a\(batch)-in")))
                .with(.activityEnd(.init(at: at + 0.3, activity: "a\(batch)-in", outcome: .passed)))
                .with(.activityEnd(.init(at: at + 0.4, activity: "a\(batch)", outcome: .passed)))
        }
        script = script.with(
            .predicate(
                .init(
                    at: 13, test: test, name: "priced", expect: .holds, held: false, attempts: 9, waited: 1, timeout: 1)
            ))
        try ledger.database.ingest(keepRunning: true) { sink in
            for record in script.records { try sink.consume(record) }
        }
        let outcome = RunScript(run: script.run)
            .with(.testStart(.init(at: 9.5, test: test)))
            .with(.testEnd(.init(at: 14, test: test, outcome: .failed, duration: 4.5)))
        try ledger.database.ingest { sink in
            for record in outcome.records { try sink.consume(record) }
        }
        #expect(try ledger.count("result") == 1)
        #expect(try ledger.count("activity") == 6)
        #expect(try ledger.count("capture") == 3)
        #expect(try ledger.count("predicate") == 1)
        let nested = try ledger.database.writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM activity child JOIN activity step ON step.id = child.parentId
                    WHERE child.name = 'Inner' AND step.name LIKE 'Step %'
                    """)
        }
        #expect(nested == 3, "each inner step under its own top-level step")
        let row = try ledger.database.writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT r.startedAt, r.outcome, t.name FROM result r JOIN test t ON t.id = r.testId")
        }
        #expect(row?["startedAt"] == 9.5)
        #expect(row?["outcome"] == "failed")
        #expect(row?["name"] == "quotes()", "what a later start adds is kept")
    }
}
