import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// Attempts with something inside them (steps, captures, checks, issues, attachments), written in
/// bulk with a run's other attempts: PostgreSQL copies them a table at a time under ids taken ahead.
@Suite struct DetailedAttemptTests {
    /// An attempt with a step inside a step, and a capture, a check, an issue and an attachment.
    static func detailed(_ script: RunScript, _ test: String, message: String = "failed") -> RunScript {
        let outer = test + "/outer"
        let inner = test + "/inner"
        var script = script.with(.testStart(.init(at: script.clock, test: test)))
            .with(.activityStart(.init(at: script.clock + 0.1, test: test, activity: outer, name: "Open")))
            .with(
                .activityStart(.init(at: script.clock + 0.2, test: test, activity: inner, parent: outer, name: "Tap")))
        script = script.with(
            .capture(
                .init(
                    at: script.clock + 0.3, test: test, verifier: "AlertVerifier", activity: inner,
                    fields: ["title": "Delete?"]))
        )
        .with(
            .predicate(
                .init(
                    at: script.clock + 0.4, test: test, name: "alert shown", expect: .holds, held: false,
                    attempts: 3, waited: 1, timeout: 1, interval: 0.25, activity: outer))
        )
        .with(
            .attachment(
                .init(
                    at: script.clock + 0.5, test: test, name: "screen.png", mediaType: "image/png", size: 42,
                    activity: inner))
        )
        .with(.activityEnd(.init(at: script.clock + 0.6, activity: inner, outcome: .failed)))
        .with(.issue(.init(at: script.clock + 0.7, test: test, message: message, file: "A.swift", line: 3)))
        .with(.activityEnd(.init(at: script.clock + 0.8, activity: outer, outcome: .failed)))
        return script.with(.testEnd(.init(at: script.clock + 1, test: test, outcome: .failed, duration: 1)))
    }

    /// Each attempt's detail is its own: the failed first attempt keeps its steps and evidence
    /// once a retry has passed.
    @Test(arguments: StoreKind.available)
    func anEarlierAttemptIsShownWhenAskedFor(_ kind: StoreKind) async throws {
        try await onOwnThread {
            let store = try TemporaryStore(kind)
            defer { store.remove() }
            let script = Self.detailed(RunScript(project: "Shop").start(), "Cart/flaky")
                .result("Cart/flaky", .passed, attempt: 2).end()
            try store.ingest(script.records)
            let first = try store.database.testDetail(test: "Cart/flaky", run: script.run, project: nil, attempt: 1)
            #expect(first.attempt == 1 && first.outcome == .ended(.failed))
            #expect(first.activities.map(\.name) == ["Open"] && first.predicates.map(\.held) == [false])
            #expect(first.issues.map(\.message) == ["failed"] && first.attempts.count == 2)
            let final = try store.database.testDetail(test: "Cart/flaky", run: script.run)
            #expect(final.attempt == 2 && final.outcome == .ended(.passed) && final.activities.isEmpty)
            #expect(throws: StoreError.noSuchTest("Cart/flaky attempt 3 in run \(script.run)")) {
                try store.database.testDetail(test: "Cart/flaky", run: script.run, project: nil, attempt: 3)
            }
            // Without a run, the attempt is the newest run's, even when an older run had more.
            let later = RunScript(project: "Shop", at: script.clock + 60).start().pass("Cart/flaky").end()
            try store.ingest(later.records)
            let newest = try store.database.testDetail(test: "Cart/flaky", run: nil, project: nil, attempt: 1)
            #expect(newest.run == later.run && newest.outcome == .ended(.passed))
            #expect(throws: StoreError.noSuchTest("Cart/flaky attempt 2 in run \(later.run)")) {
                try store.database.testDetail(test: "Cart/flaky", run: nil, project: nil, attempt: 2)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func detailsAreStoredWithTheirAttemptAmongManyPlainOnes(_ kind: StoreKind) async throws {
        try await onOwnThread {
            let store = try TemporaryStore(kind)
            defer { store.remove() }
            // More plain and detailed attempts than one batch of either, interleaved.
            var script = RunScript(project: "Shop").start()
            for index in 0..<600 {
                script =
                    index % 2 == 0
                    ? script.pass("Plain/test\(index)") : Self.detailed(script, "Detailed/test\(index)")
            }
            let summary = try store.ingest(script.end().records)
            #expect(summary.results == 600)
            #expect(try store.database.run(id: script.run)?.tests == 600)
            #expect(try store.database.run(id: script.run)?.failed == 300)

            for index in [1, 299, 599] {
                let detail = try store.database.testDetail(test: "Detailed/test\(index)", run: script.run)
                let outer = try #require(detail.activities.first)
                #expect(detail.activities.count == 1)
                #expect(outer.name == "Open" && outer.outcome == .failed)
                #expect(outer.children.map(\.name) == ["Tap"])
                #expect(detail.captures.map(\.activity) == ["Detailed/test\(index)/inner"])
                #expect(detail.captures.first?.fields == ["title": "Delete?"])
                #expect(detail.predicates.map(\.activity) == ["Detailed/test\(index)/outer"])
                #expect(detail.predicates.first?.held == false && detail.predicates.first?.interval == 0.25)
                #expect(detail.attachments.map(\.activity) == ["Detailed/test\(index)/inner"])
                #expect(detail.attachments.first?.size == 42)
                #expect(detail.issues.map(\.message) == ["failed"])
            }
            #expect(try store.database.testDetail(test: "Plain/test0", run: script.run).activities.isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func severalRunsInOneInputKeepTheirOwnAttempts(_ kind: StoreKind) async throws {
        try await onOwnThread {
            let store = try TemporaryStore(kind)
            defer { store.remove() }
            var first = RunScript(project: "Shop").start()
            var second = RunScript(project: "Shop").start()
            for index in 0..<150 {
                first = Self.detailed(first, "Both/test\(index)", message: "first")
                second = Self.detailed(second.pass("Only/test\(index)"), "Both/test\(index)", message: "second")
            }
            // Interleaved, as runs of parallel jobs merged into one input.
            let records =
                zip(first.end().records, second.end().records).flatMap { [$0, $1] }
                + second.end().records.dropFirst(first.end().records.count)
            let summary = try store.ingest(records)
            #expect(summary.results == 450)
            #expect(try store.database.run(id: first.run)?.tests == 150)
            #expect(try store.database.run(id: second.run)?.tests == 300)
            #expect(
                try store.database.testDetail(test: "Both/test7", run: first.run).issues.map(\.message) == ["first"])
            #expect(
                try store.database.testDetail(test: "Both/test7", run: second.run).issues.map(\.message) == ["second"])
            #expect(try store.database.testDetail(test: "Both/test7", run: second.run).activities.count == 1)
        }
    }

    /// Whichever order a repeated attempt comes in, one is stored: the first written, where an
    /// attempt with details is written before plain ones still queued.
    @Test(arguments: StoreKind.available)
    func anAttemptRepeatedInOneInputIsStoredOnce(_ kind: StoreKind) async throws {
        try await onOwnThread {
            let store = try TemporaryStore(kind)
            defer { store.remove() }
            var script = RunScript(project: "Shop").start()
            script = Self.detailed(script, "Twice/detailed", message: "first")
            script = Self.detailed(script, "Twice/detailed", message: "second")
            script = script.pass("Twice/plainFirst")
            script = Self.detailed(script, "Twice/plainFirst", message: "second")
            script = Self.detailed(script, "Twice/plainLast", message: "first")
            script = script.pass("Twice/plainLast")
            let summary = try store.ingest(script.end().records)
            #expect(summary.results == 3)
            #expect(summary.alreadyStored == 3)

            let detailed = try store.database.testDetail(test: "Twice/detailed", run: script.run)
            #expect(detailed.issues.map(\.message) == ["first"])
            #expect(detailed.activities.count == 1 && detailed.predicates.count == 1)
            let plainFirst = try store.database.testDetail(test: "Twice/plainFirst", run: script.run)
            #expect(plainFirst.issues.map(\.message) == ["second"])
            #expect(plainFirst.attempts.count == 1)
            let plainLast = try store.database.testDetail(test: "Twice/plainLast", run: script.run)
            #expect(plainLast.issues.map(\.message) == ["first"])
            #expect(plainLast.outcome == AttemptState(.failed))
        }
    }

    /// A live recorder's batch stores an attempt with details as running; the next completes it.
    @Test(arguments: StoreKind.available)
    func aRunningAttemptWithDetailsIsCompletedByTheNextBatch(_ kind: StoreKind) async throws {
        try await onOwnThread {
            let store = try TemporaryStore(kind)
            defer { store.remove() }
            let script = RunScript(project: "Shop").start()
                .with(.testStart(.init(at: 1_700_000_000, test: "Live/a")))
                .with(.issue(.init(at: 1_700_000_000.5, test: "Live/a", message: "slow")))
            try store.database.ingest(keepRunning: true) { sink in
                for record in script.records { try sink.consume(record) }
            }
            #expect(try store.database.testDetail(test: "Live/a", run: script.run).outcome == .running)

            let end = LedgerRecord(
                run: script.run,
                event: .testEnd(.init(at: 1_700_000_001, test: "Live/a", outcome: .passed, duration: 1)))
            #expect(try store.ingest([end]).results == 1)
            let detail = try store.database.testDetail(test: "Live/a", run: script.run)
            #expect(detail.outcome == AttemptState(.passed))
            #expect(detail.issues.map(\.message) == ["slow"])
        }
    }
}
