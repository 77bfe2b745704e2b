import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct FailureGroupQueryTests {
    /// A failing attempt whose issue says `message`.
    func failing(_ script: RunScript, _ test: String, _ message: String, attempt: Int = 1) -> RunScript {
        script.with(.testStart(.init(at: script.clock, test: test, attempt: attempt)))
            .with(
                .issue(
                    .init(at: script.clock, test: test, attempt: attempt, message: message, file: "Sync.swift", line: 9)
                )
            )
            .with(.testEnd(.init(at: script.clock, test: test, attempt: attempt, outcome: .failed, duration: 0.1)))
    }

    @Test(arguments: StoreKind.available) func oneCauseAcrossTestsAndRunsIsOneGroupAndRetriedFailuresCount(
        kind: StoreKind
    ) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            for run in 0..<2 {
                var script = RunScript(at: 1_700_000_000 + Double(run) * 86_400).start()
                for test in 0..<5 {
                    script = failing(
                        script, "Sync/test\(test)", "Could not connect to 10.0.0.\(test):80\(run) after \(test * 7) ms")
                }
                script = failing(script, "Cart/retried", "expected: <1> but was: <\(run)>")
                script = script.result("Cart/retried", .passed, attempt: 2).pass("Cart/fine")
                try ledger.ingest(script.end().records)
            }
            let groups = try ledger.database.failureGroups(project: nil, runs: 30, since: nil)
            #expect(
                groups.map(\.signature) == [
                    "Could not connect to <n>.<n>:<n> after <n> ms", "expected: <<n>> but was: <<n>>",
                ])
            #expect(groups.first?.failures == 10 && groups.first?.runs == 2 && groups.first?.tests.count == 5)
            #expect(groups.last?.tests == ["Cart/retried"] && groups.last?.failures == 2)
            #expect(try ledger.database.failureGroups(project: nil, runs: 1, since: nil).first?.failures == 5)
        }
    }
}
