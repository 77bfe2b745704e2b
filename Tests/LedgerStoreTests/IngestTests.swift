import Foundation
import GRDB
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct IngestTests {
    @Test func everyEventTypeIsStored() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript(revision: "abc").start(configuration: "iPhone 15 / iOS 18")
            .with(
                .testStart(
                    .init(
                        at: 10, test: "Demo.Alerts/testDelete", suite: "Demo.Alerts", name: "testDelete",
                        file: "Alerts.swift", line: 4, layer: .unit, tags: ["alert"]))
            )
            .with(.activityStart(.init(at: 10.1, test: "Demo.Alerts/testDelete", activity: "a1", name: "Open")))
            .with(
                .activityStart(
                    .init(at: 10.2, test: "Demo.Alerts/testDelete", activity: "a2", parent: "a1", name: "Tap delete"))
            )
            .with(
                .capture(
                    .init(
                        at: 10.3, test: "Demo.Alerts/testDelete", verifier: "AlertVerifier", activity: "a2",
                        fields: ["title": "Delete?", "presentedCount": 1]))
            )
            .with(
                .predicate(
                    .init(
                        at: 10.4, test: "Demo.Alerts/testDelete", name: "alert shown", expect: .holds, held: true,
                        attempts: 4, waited: 0.04, timeout: 1, interval: 0.01, activity: "a2"))
            )
            .with(.activityEnd(.init(at: 10.5, activity: "a2", outcome: .failed)))
            .with(
                .issue(
                    .init(
                        at: 10.5, test: "Demo.Alerts/testDelete",
                        message: "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")", file: "Alerts.swift",
                        line: 9, kind: .assertion))
            )
            .with(.activityEnd(.init(at: 10.6, activity: "a1", outcome: .failed)))
            .with(.testEnd(.init(at: 11, test: "Demo.Alerts/testDelete", outcome: .failed, duration: 1)))
            .end()
        let summary = try ledger.ingest(script.records)
        #expect(summary.results == 1)
        #expect(summary.runs == [script.run])

        let row = try ledger.database.writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT run.configuration, run.revision, run.outcome, test.key, test.layer, test.tags, test.file,
                        result.outcome, result.duration, issue.line, issue.kind
                    FROM result JOIN run ON run.id = result.runId JOIN test ON test.id = result.testId
                    JOIN issue ON issue.resultId = result.id
                    """)
        }
        #expect(row?[0] == "iPhone 15 / iOS 18")
        #expect(row?[1] == "abc")
        #expect(row?[2] == "finished")
        #expect(row?[3] == "Demo.Alerts/testDelete")
        #expect(row?[4] == "unit")
        #expect(row?[5] == #"["alert"]"#)
        #expect(row?[7] == "failed")
        #expect(row?[8] == 1.0)
        #expect(row?[9] == 9)
        #expect(row?[10] == "assertion")

        let activities = try ledger.database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT child.name, parent.name, child.outcome FROM activity child
                    LEFT JOIN activity parent ON parent.id = child.parentId ORDER BY child.startedAt
                    """)
        }
        #expect(activities.map { $0[0] as String } == ["Open", "Tap delete"])
        #expect(activities[1][1] == "Open")
        #expect(activities[1][2] == "failed")
        let capture = try ledger.database.writer.read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT capture.verifier, capture.fields, activity.name FROM capture JOIN activity ON activity.id = capture.activityId"
            )
        }
        #expect(capture?[0] == "AlertVerifier")
        #expect(capture?[1] == #"{"presentedCount":1,"title":"Delete?"}"#)
        #expect(capture?[2] == "Tap delete")
        let predicate = try ledger.database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT name, expect, held, attempts, waited, timeout, interval FROM predicate")
        }
        #expect(predicate?[0] == "alert shown")
        #expect(predicate?[1] == "holds")
        #expect(predicate?[2] == true)
        #expect(predicate?[3] == 4)
        #expect(predicate?[6] == 0.01)
    }

    @Test func sendingARunTwiceStoresItOnce() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start().pass("A/a").fail("A/b").result("A/c", .failed).result(
            "A/c", .passed, attempt: 2
        )
        .end()
        let first = try ledger.ingest(script.records)
        let second = try ledger.ingest(script.records)
        #expect(first.results == 4)
        #expect(second.results == 0)
        #expect(second.alreadyStored == 4)
        #expect(try ledger.count("result") == 4)
        #expect(try ledger.count("issue") == 2)
        #expect(try ledger.count("run") == 1)
    }

    @Test func aFailingInputStoresNothing() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        struct Broken: Error {}
        let script = RunScript().start().pass("A/a").pass("A/b")
        #expect(throws: Broken.self) {
            try ledger.database.ingest { sink in
                for record in script.records { try sink.consume(record) }
                throw Broken()
            }
        }
        #expect(try ledger.count("run") == 0)
        #expect(try ledger.count("result") == 0)
        #expect(try ledger.count("test") == 0)
    }

    @Test func eventsBeforeRunStartAreRejected() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().pass("A/a")
        #expect(throws: StoreSink.Problem.self) { try ledger.ingest(script.records) }
    }

    @Test func anUnfinishedTestIsCrashedAndTheRunInterrupted() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start().pass("A/a")
            .with(.testStart(.init(at: 1_700_000_001, test: "A/crashes")))
            .with(.issue(.init(at: 1_700_000_002, test: "A/crashes", message: "Fatal error", kind: .crash)))
        let summary = try ledger.ingest(script.records)
        #expect(summary.crashed == 1)
        let run = try #require(try ledger.database.runs().first)
        #expect(run.status == .interrupted)
        #expect(run.crashed == 1)
        #expect(run.passed == 1)
        let outcome = try ledger.database.writer.read { db in
            try String.fetchOne(
                db, sql: "SELECT outcome FROM result JOIN test ON test.id = testId WHERE key = 'A/crashes'")
        }
        #expect(outcome == "crashed")
    }

    @Test func aRunWithoutResultsCountsNothingAsCrashed() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        try ledger.ingest(RunScript().start().end().records)
        let run = try #require(try ledger.database.runs().first)
        #expect(run.tests == 0 && run.crashed == 0 && run.failed == 0 && run.muted == 0)
        #expect(run.status == .finished)
    }

    @Test func runsCountFinalOutcomesNewestFirst() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let older = RunScript(at: 1_000).start().pass("A/a").end()
        let newer = RunScript(at: 2_000).start(source: "junit")
            .pass("A/a").result("A/b", .failed).result("A/b", .passed, attempt: 2).fail("A/c").result("A/d", .skipped)
            .end()
        try ledger.ingest(older.records + newer.records)
        let runs = try ledger.database.runs()
        #expect(runs.map(\.id) == [newer.run, older.run])
        let latest = runs[0]
        #expect(latest.tests == 4)
        #expect(latest.passed == 2)
        #expect(latest.failed == 1)
        #expect(latest.skipped == 1)
        #expect(latest.flaky == 1)
        #expect(latest.source == "junit")
        #expect(latest.status == .finished)
    }

    @Test func aRunsCountsFromItsSummaryMatchItsResultsCounted() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript(at: 3_000).start()
            .pass("A/a").result("A/b", .failed).result("A/b", .passed, attempt: 2).fail("A/c").result("A/d", .skipped)
            .result("A/e", .error).result("A/f", .expectedFailure).fail("A/g")
            .with(.testStart(.init(at: 3_100, test: "A/crashes")))
        try ledger.ingest(script.records)
        try ledger.database.writer.write { db in
            try db.execute(
                sql: "UPDATE result SET muted = 1 WHERE testId IN (SELECT id FROM test WHERE key IN ('A/c', 'A/a'))")
        }
        let summarised = try #require(try ledger.database.run(id: script.run))
        #expect(
            [summarised.tests, summarised.passed, summarised.failed, summarised.skipped] == [8, 3, 3, 1]
                && [summarised.crashed, summarised.flaky, summarised.muted] == [1, 1, 1],
            "a muted pass is not muted; a muted failure is")
        try ledger.database.writer.write { db in try db.execute(sql: "DELETE FROM run_summary") }
        #expect(try ledger.database.run(id: script.run) == summarised)
        #expect(try ledger.database.runs(limit: -1) == [summarised])
    }

    @Test func concurrentWritersFromTwoConnectionsLoseNothing() async throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let path = ledger.path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let database = try LedgerDatabase(path: path)
                    for batch in 0..<10 {
                        var script = RunScript().start()
                        for test in 0..<20 { script = script.pass("W\(writer).B\(batch)/t\(test)") }
                        try database.ingest { sink in
                            for record in script.end().records { try sink.consume(record) }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try ledger.count("run") == 40)
        #expect(try ledger.count("result") == 800)
    }
}
