import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// Which tests of a run are new, for `record --repeat-new`: the base branch's runs tell, else the
/// project's earlier runs of the same configuration, else nothing does.
@Suite struct NewTestsQueryTests {
    static let start = 1_790_000_000.0

    func send(
        _ ledger: TemporaryStore, branch: String?, at offset: Double, configuration: String? = nil,
        _ build: (RunScript) -> RunScript
    ) throws -> String {
        let script = build(RunScript(at: Self.start + offset).start(configuration: configuration, branch: branch)).end()
        try ledger.ingest(script.records)
        return script.run
    }

    @Test(arguments: StoreKind.available)
    func testsTheBaseBranchNeverRanAreNewWithTheirSeconds(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            _ = try send(ledger, branch: "main", at: 0) { $0.pass("A/known").fail("A/knownFailing") }
            // A feature branch's own earlier run does not make its tests known to main.
            _ = try send(ledger, branch: "feature", at: 60) { $0.pass("A/known").pass("A/added") }
            // Nor does a main run after this one.
            let run = try send(ledger, branch: "feature", at: 120) {
                $0.pass("A/known").pass("A/knownFailing").pass("A/added", duration: 2.5).pass("A/other", duration: 0.5)
                    .fail("A/newFailing")
            }
            _ = try send(ledger, branch: "main", at: 180) { $0.pass("A/other") }
            let new = try ledger.database.newTests(run: run, base: "main")
            #expect(new.seconds == ["A/added": 2.5, "A/other": 0.5])
            #expect(new.failed == ["A/newFailing"])
            #expect(new.comparedWith.branch == "main" && new.comparedWith.runs == 1)
            let known = try ledger.database.knownTests(run: run, base: "main")
            #expect(known.tests == ["A/known", "A/knownFailing"] && known.comparedWith.runs == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func withoutBaseRunsTheEarlierRunsOfTheConfigurationTell(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            _ = try send(ledger, branch: nil, at: 0) { $0.pass("A/known") }
            _ = try send(ledger, branch: nil, at: 30, configuration: "iPad") { $0.pass("A/added") }
            let run = try send(ledger, branch: nil, at: 60) { $0.pass("A/known").pass("A/added") }
            let new = try ledger.database.newTests(run: run, base: "main")
            #expect(Array(new.seconds.keys) == ["A/added"], "the iPad run is another configuration's")
            #expect(new.comparedWith.branch == nil && new.comparedWith.runs == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func aFirstRunHasNothingToCompareWith(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            // A main run that stored no test (its recording failed) tells nothing either.
            _ = try send(ledger, branch: "main", at: 0) { $0 }
            let run = try send(ledger, branch: "feature", at: 60) { $0.pass("A/a") }
            let new = try ledger.database.newTests(run: run, base: "main")
            #expect(new.seconds.isEmpty && new.comparedWith.runs == 0)
            #expect(throws: StoreError.self) { try ledger.database.newTests(run: "missing", base: "main") }
        }
    }
}
