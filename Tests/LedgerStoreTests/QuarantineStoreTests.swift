import Foundation
import GRDB
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct QuarantineStoreTests {
    func entry(
        _ test: String, _ mode: QuarantineMode = .mute, reason: String = "flaky", at: Double = 100,
        until: Double? = nil, configuration: String = QuarantinedTest.everyConfiguration
    ) -> QuarantinedTest {
        QuarantinedTest(
            project: "Demo", test: test, configuration: configuration, mode: mode, reason: reason, by: "ana", since: at,
            until: until)
    }

    @Test(arguments: StoreKind.available) func addingChangingAndRemovingLeaveOneTrailEntryEach(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let added = try ledger.database.quarantine([entry("A/a"), entry("A/b", .skip)])
            #expect(added.map(\.action) == [.add, .add])
            #expect(try ledger.database.quarantine([entry("A/a", at: 150)]).isEmpty, "the same again changes nothing")
            let changed = try ledger.database.quarantine([entry("A/a", .mute, reason: "flaky on CI", at: 200)])
            #expect(changed.map(\.action) == [.change])
            let listed = try ledger.database.quarantined(project: "Demo", at: 300)
            #expect(listed.map(\.test) == ["A/a", "A/b"])
            #expect(
                listed.first?.reason == "flaky on CI" && listed.first?.since == 100, "the same mode keeps its start")
            try ledger.database.release(["A/b"], project: "Demo", reason: "fixed", by: "bo", at: 400)
            #expect(try ledger.database.quarantined(project: "Demo", at: 500).map(\.test) == ["A/a"])
            let log = try ledger.database.quarantineLog(project: "Demo")
            #expect(log.map(\.action) == [.add, .add, .change, .remove])
            #expect(log.map(\.test) == ["A/a", "A/b", "A/a", "A/b"])
            #expect(log.last?.by == "bo" && log.last?.reason == "fixed" && log.last?.mode == nil)
            #expect(log.map(\.id) == log.map(\.id).sorted())
        }
    }

    @Test(arguments: StoreKind.available) func releasingATestNotInQuarantineChangesNothing(kind: StoreKind) async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.database.quarantine([entry("A/a")])
            #expect(throws: StoreError.notInQuarantine("A/zzz")) {
                try ledger.database.release(["A/a", "A/zzz"], project: "Demo", reason: "fixed", by: "bo", at: 200)
            }
            #expect(try ledger.database.quarantined(project: "Demo", at: 300).map(\.test) == ["A/a"])
            #expect(try ledger.database.quarantineLog(project: "Demo").count == 1)
        }
    }

    @Test(arguments: StoreKind.available) func anExpiredEntryIsNotInForceAndAddingItAgainIsAnAdd(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.database.quarantine([entry("A/a", until: 200)])
            #expect(try ledger.database.quarantined(project: "Demo", at: 199).count == 1)
            #expect(try ledger.database.quarantined(project: "Demo", at: 200).isEmpty)
            #expect(try ledger.database.quarantine([entry("A/a", at: 300, until: 200_000)]).map(\.action) == [.add])
        }
    }

    @Test(arguments: StoreKind.available) func configurationsAreQuarantinedApart(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.database.quarantine([entry("A/a", configuration: "iPhone 16"), entry("A/a", .skip)])
            let listed = try ledger.database.quarantined(project: "Demo", at: 150)
            #expect(listed.map(\.configuration) == ["*", "iPhone 16"])
            #expect(throws: StoreError.notInQuarantine("A/a (iPad)")) {
                try ledger.database.release(
                    ["A/a"], project: "Demo", configuration: "iPad", reason: "r", by: "b", at: 200)
            }
        }
    }

    @Test func theTrailCannotBeRewrittenOrErased() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        try ledger.database.quarantine([entry("A/a")])
        for sql in ["UPDATE quarantine_log SET reason = 'nothing happened'", "DELETE FROM quarantine_log"] {
            #expect(throws: DatabaseError.self) {
                try ledger.database.writer.write { try $0.execute(sql: sql) }
            }
        }
        #expect(try ledger.database.quarantineLog(project: "Demo").map(\.reason) == ["flaky"])
    }

    @Test(arguments: StoreKind.available) func knownTestIDsAreTheProjectsOwn(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.ingest(RunScript().start().pass("B/b").fail("A/a").end().records)
            try ledger.ingest(RunScript(project: "Other").start().pass("C/c").end().records)
            #expect(try ledger.database.testIDs(project: "Demo") == ["A/a", "B/b"])
        }
    }

    @Test(arguments: StoreKind.available) func theFlakyReportMarksQuarantinedTests(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            for run in 0..<8 {
                var script = RunScript(at: 1_700_000_000 + Double(run) * 86_400).start()
                script = run % 2 == 0 ? script.fail("A/a").fail("A/b") : script.pass("A/a").pass("A/b")
                try ledger.ingest(script.pass("A/c").end().records)
            }
            try ledger.database.quarantine([
                entry("A/a", .mute, at: 1_700_000_000), entry("A/b", .skip, at: 1_700_000_000, configuration: "iPad"),
            ])
            let report = try ledger.database.flakyReport(
                project: "Demo", runs: 8, since: nil, thresholds: FlakyThresholds(), now: 1_800_000_000)
            #expect(report.flaky.map(\.test).sorted() == ["A/a", "A/b"])
            #expect(report.flaky.first { $0.test == "A/a" }?.quarantined == .mute)
            #expect(
                report.flaky.first { $0.test == "A/b" }?.quarantined == nil, "quarantined for another configuration")
            let table = FlakyRendering.table(report)
            #expect(table.contains("A/a (muted)") && !table.contains("A/b (skipped)"))
        }
    }

    @Test(arguments: StoreKind.available) func thePolicyMutesAFlakyTestThenReleasesItWithTheEvidenceInTheTrail(
        kind: StoreKind
    ) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            var policy = QuarantinePolicy()
            policy.mutesFlakyTests = true
            policy.afterRuns = 8
            let day = 86_400.0
            func send(_ run: Int, fails: Bool) throws -> [QuarantineChange] {
                let at = 1_700_000_000 + Double(run) * day
                var script = RunScript(at: at).start()
                script = fails ? script.fail("A/flaky").fail("A/broken") : script.pass("A/flaky").fail("A/broken")
                try ledger.ingest(script.pass("A/stable").end().records)
                return try ledger.database.applyQuarantinePolicy(
                    policy, project: "Demo", window: 60, thresholds: FlakyThresholds(), now: at + 3_600)
            }
            var muted: [QuarantineChange] = []
            for run in 0..<8 { muted += try send(run, fails: run % 2 == 0) }
            #expect(muted.map(\.test) == ["A/flaky"] && muted.first?.action == .add, "never the broken one")
            // At its earlier rate of 1 in 2, 7 quiet runs fall under 1 %; 14 quiet days are needed too.
            var released: [QuarantineChange] = []
            for run in 8..<30 where released.isEmpty { released = try send(run, fails: false) }
            #expect(released.map(\.action) == [.remove] && released.first?.automatic == true)
            let trail = try ledger.database.quarantineLog(project: "Demo")
            #expect(trail.map(\.action) == [.add, .remove])
            #expect(trail.last?.evidence?.contains(#""quietRuns""#) == true, "\(trail.last?.evidence ?? "")")
            #expect(trail.last?.reason.hasPrefix("recovered:") == true)
            #expect(try ledger.database.quarantined(project: "Demo", at: 1_800_000_000).isEmpty)
        }
    }
}
