import Foundation
import GRDB
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// ``ResultStore/afterRunsStored(_:policy:now:)``: what every writer does once a run is stored.
@Suite struct AfterRunStoredTests {
    let now = 1_800_000_000.0

    func entry(
        _ test: String, _ mode: QuarantineMode = .mute, project: String = "Demo",
        configuration: String = QuarantinedTest.everyConfiguration, until: Double? = nil
    ) -> QuarantinedTest {
        QuarantinedTest(
            project: project, test: test, configuration: configuration, mode: mode, reason: "flaky", by: "ana",
            since: 100, until: until)
    }

    /// A run of `configuration` in which every test named fails.
    func failing(_ tests: [String], configuration: String?, at: Double = 1_700_000_000) -> RunScript {
        var script = RunScript(at: at).start(configuration: configuration)
        for test in tests { script = script.fail(test) }
        return script.end()
    }

    /// The tests whose results in `run` are flagged muted, read straight from either store's tables.
    func flagged(_ run: String, in database: any ResultStore) throws -> [String] {
        let store = try #require(database as? any ReadsThroughStoreReader)
        return try store.withReader { reader in
            try reader.rows(
                """
                SELECT DISTINCT test.key FROM result JOIN test ON test.id = result.testId
                WHERE result.muted <> 0 AND result.runId = (SELECT id FROM run WHERE uuid = \(reader.dialect.parameter(1)))
                ORDER BY test.key
                """, [.text(run)]
            ).map { try $0.required($0.string, "key") }
        }
    }

    @Test(arguments: StoreKind.available) func flagsOnlyTheTestsMutedForTheRunsProjectAndConfiguration(
        kind: StoreKind
    ) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let tests = ["A/every", "A/ios", "A/mac", "A/skipped", "A/expired", "A/elsewhere", "A/plain"]
            let ios = failing(tests, configuration: "iOS 17")
            let mac = failing(tests, configuration: "macOS 14")
            let untouched = failing(tests, configuration: nil)
            for script in [ios, mac, untouched] { try ledger.ingest(script.records) }
            try ledger.database.quarantine([
                entry("A/every"), entry("A/ios", configuration: "iOS 17"), entry("A/mac", configuration: "macOS 14"),
                entry("A/skipped", .skip), entry("A/expired", until: now - 1), entry("A/elsewhere", project: "Bank"),
            ])

            let changes = try ledger.database.afterRunsStored([ios.run, mac.run], now: now)
            #expect(changes.muted == [ios.run: ["A/every", "A/ios"], mac.run: ["A/every", "A/mac"]])
            #expect(changes.quarantine.isEmpty && changes.ownership.isEmpty, "no policy, no ownership")
            let runs = Dictionary(
                uniqueKeysWithValues: try ledger.database.runs(project: "Demo", limit: -1).map { ($0.id, $0) })
            #expect(runs[ios.run]?.muted == 2 && runs[mac.run]?.muted == 2)
            #expect(runs[ios.run]?.failed == tests.count, "muted failures are still failures")
            #expect(runs[untouched.run]?.muted == 0, "a run not named is left as it was")
            #expect(try flagged(ios.run, in: ledger.database) == ["A/every", "A/ios"])
            #expect(try flagged(mac.run, in: ledger.database) == ["A/every", "A/mac"])

            let again = try ledger.database.afterRunsStored([untouched.run], now: now)
            #expect(again.muted == [untouched.run: ["A/every"]], "a run that named no configuration")
            #expect(try ledger.database.run(id: untouched.run)?.muted == 1)
            #expect(try ledger.database.project(ofRun: untouched.run) == "Demo")
            #expect(try ledger.database.project(ofRun: "no-such-run") == nil)
        }
    }

    @Test(arguments: StoreKind.available) func aQuarantineListGivenStandsInForTheStores(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let run = failing(["A/local", "A/server"], configuration: nil)
            try ledger.ingest(run.records)
            try ledger.database.quarantine([entry("A/local")])
            let changes = try ledger.database.afterRunsStored(
                [run.run], policy: RunStoredPolicy(quarantine: [entry("A/server"), entry("A/local", project: "Bank")]),
                now: now)
            #expect(changes.muted == [run.run: ["A/server"]])
            #expect(try flagged(run.run, in: ledger.database) == ["A/server"])
            #expect(try ledger.database.run(id: run.run)?.muted == 1)
        }
    }

    @Test(arguments: StoreKind.available) func appliesTheAutomaticQuarantineOnlyWhenAPolicyIsGiven(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let day = 86_400.0
            var runs: [String] = []
            for index in 0..<8 {
                var script = RunScript(at: 1_700_000_000 + Double(index) * day).start()
                script = index % 2 == 0 ? script.fail("A/flaky") : script.pass("A/flaky")
                let run = script.fail("A/broken").pass("A/stable").end()
                try ledger.ingest(run.records)
                runs.append(run.run)
            }
            let later = 1_700_000_000 + 8 * day
            let without = try ledger.database.afterRunsStored(runs, now: later)
            #expect(without.quarantine.isEmpty)
            #expect(try ledger.database.quarantined(project: "Demo", at: later).isEmpty)

            var policy = QuarantinePolicy()
            policy.mutesFlakyTests = true
            policy.afterRuns = 8
            let automatic = RunStoredPolicy.AutomaticQuarantine(policy, window: 60)
            let with = try ledger.database.afterRunsStored(
                runs, policy: RunStoredPolicy(automaticQuarantine: automatic), now: later)
            #expect(with.quarantine.map(\.test) == ["A/flaky"], "never the broken one")
            #expect(with.quarantine.first?.action == .add && with.quarantine.first?.automatic == true)
            let last = try #require(runs.last)
            #expect(with.muted[last] == [], "the run that muted it is judged by the quarantine it ran under")
            #expect(try ledger.database.afterRunsStored([last], now: later).muted == [last: ["A/flaky"]])
            #expect(try ledger.database.quarantineLog(project: "Demo").map(\.by) == [QuarantinePolicy.actor])
        }
    }

    @Test(arguments: StoreKind.available) func keepsTheOwnershipGivenForTheRunsProject(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let run = failing(["A/a"], configuration: nil)
            try ledger.ingest(run.records)
            let ownership = Ownership(
                codeowners: "* @acme/shop\n", codeownersPath: ".github/CODEOWNERS",
                rules: [OwnerRule(pattern: "A/*", owners: ["@acme/a"])], root: "/checkout", topLevel: ["Sources"])

            let first = try ledger.database.afterRunsStored([run.run], policy: RunStoredPolicy(ownership: ownership))
            #expect(first.ownership == ["Demo"])
            #expect(try ledger.database.ownership(project: "Demo") == ownership)
            #expect(try ledger.database.ownership(project: "Bank") == nil)
            let same = try ledger.database.afterRunsStored([run.run], policy: RunStoredPolicy(ownership: ownership))
            #expect(same.ownership.isEmpty, "the same ownership again changes nothing")
            for other in [RunStoredPolicy(ownership: Ownership()), RunStoredPolicy()] {
                #expect(try ledger.database.afterRunsStored([run.run], policy: other).ownership.isEmpty)
            }
            #expect(try ledger.database.ownership(project: "Demo") == ownership, "none given keeps what is kept")
        }
    }

    @Test(arguments: StoreKind.available) func anUnknownRunChangesNothing(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let run = failing(["A/a"], configuration: nil)
            try ledger.ingest(run.records)
            try ledger.database.quarantine([entry("A/a")])
            var policy = QuarantinePolicy()
            policy.mutesFlakyTests = true
            let everything = RunStoredPolicy(
                automaticQuarantine: RunStoredPolicy.AutomaticQuarantine(policy),
                ownership: Ownership(codeowners: "* @acme/shop\n"), quarantine: [entry("A/a")])
            let changes = try ledger.database.afterRunsStored(["no-such-run"], policy: everything, now: now)
            #expect(changes == RunStoredChanges())
            #expect(try ledger.database.run(id: run.run)?.muted == 0)
            #expect(try ledger.database.ownership(project: "Demo") == nil)
            #expect(try ledger.database.quarantineLog(project: "Demo").count == 1, "only the entry added by hand")
        }
    }
}
