import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// Both stores keep a test's newest fix and move it on with the default branch's runs, as one.
@Suite struct FixStoreTests {
    static func fix(_ test: String, revision: String, at: Double) -> RecordedFix {
        RecordedFix(
            test: test, project: "Shop", revision: revision, branch: "fix", at: at,
            evidence: .init(
                verificationRun: "v", runs: 6, failureRateBefore: 0.5, remainingRateBelow: 0.39, confidence: 0.95),
            runsToRelease: 2)
    }

    @Test(arguments: StoreKind.available) func theNewestFixIsFollowedByTheDefaultBranchsRuns(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let database = ledger.database
            let first = try database.recordFix(Self.fix("A/total", revision: "old", at: 1))
            let newest = try database.recordFix(Self.fix("A/total", revision: "r2", at: 2))
            try database.recordFix(Self.fix("A/tax", revision: "r9", at: 3))
            #expect(first.id != nil && newest.id != nil && first.id != newest.id)
            let listed = try database.fixes(project: "Shop")
            #expect(listed.map(\.test) == ["A/tax", "A/total"] && listed.last == newest, "\(listed)")
            #expect(try database.fixes(project: "Other").isEmpty)

            let landing = RunStoredPolicy(fixLanding: FixLanding(branch: "main"))
            // A verification's run and another branch's run on the fix's revision land nothing.
            let verification = RunScript(project: "Shop", revision: "r2", at: 10).start(
                branch: "main", kind: .verification
            )
            .pass("A/total").end()
            let branch = RunScript(project: "Shop", revision: "r2", at: 20).start(branch: "fix").pass("A/total").end()
            try ledger.ingest(verification.records + branch.records)
            var changes = try database.afterRunsStored([verification.run, branch.run], policy: landing, now: 30)
            #expect(changes.fixes.isEmpty)
            // Main on the fix's revision lands it, and counts its clean run; A/tax's fix stays pending.
            let main = RunScript(project: "Shop", revision: "r2", at: 40).start(branch: "main").pass("A/total")
                .pass("A/tax").end()
            try ledger.ingest(main.records)
            changes = try database.afterRunsStored([main.run], policy: landing, now: 50)
            #expect(changes.fixes.map(\.test) == ["A/total"] && changes.fixes.first?.state == .landed)
            let stored = try database.fixes(project: "Shop")
            #expect(stored.map(\.state) == [.pending, .landed], "\(stored)")
            #expect(stored.last?.landedRevision == "r2" && stored.last?.cleanRuns == 1 && stored.last?.id == newest.id)
            // A merge on main whose run says it carries r9 (as `upload` labels it from its checkout)
            // lands A/tax's fix; the label is listed with the run.
            let merge = RunScript(project: "Shop", revision: "m1", at: 45)
                .start(branch: "main", labels: [RecordedFix.carriedLabel: "r7 r9", "team": "cart"]).pass("A/tax").end()
            try ledger.ingest(merge.records)
            changes = try database.afterRunsStored([merge.run], policy: landing, now: 55)
            #expect(changes.fixes.map(\.test) == ["A/tax"] && changes.fixes.first?.landedRevision == "m1")
            #expect(try database.run(id: merge.run)?.labels == [RecordedFix.carriedLabel: "r7 r9", "team": "cart"])
            #expect(try database.run(id: main.run)?.labels == nil)
            // A failure regresses it, kept as the same row.
            let failing = RunScript(project: "Shop", revision: "r3", at: 60).start(branch: "main").fail("A/total").end()
            try ledger.ingest(failing.records)
            changes = try database.afterRunsStored([failing.run], policy: landing, now: 70)
            let regressed = try #require(try database.fixes(project: "Shop").last)
            #expect(regressed.state == .regressed && regressed.regressedRun == failing.run && regressed.id == newest.id)
            #expect(changes.fixes == [regressed])
        }
    }
}
