import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// The steps a run page's or `show`'s timeline draws, read from either store.
@Suite struct TimelineStepsQueryTests {
    @Test(arguments: StoreKind.available) func eachAttemptsStepsComeWithTheirPathsAndTimes(kind: StoreKind) async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let script = RunScript().start()
                .with(.testStart(.init(at: 10, test: "M.Q/quotes()")))
                .with(.activityStart(.init(at: 10.1, test: "M.Q/quotes()", activity: "q1", name: "Quote")))
                .with(.activityEnd(.init(at: 10.2, activity: "q1", outcome: .failed)))
                .with(.testEnd(.init(at: 10.3, test: "M.Q/quotes()", outcome: .failed, duration: 0.3)))
                .with(.testStart(.init(at: 11, test: "M.Q/quotes()", attempt: 2)))
                .with(.activityStart(.init(at: 11.1, test: "M.Q/quotes()", attempt: 2, activity: "q2", name: "Quote")))
                .with(.activityEnd(.init(at: 11.2, activity: "q2", outcome: .passed)))
                .with(.testEnd(.init(at: 11.3, test: "M.Q/quotes()", attempt: 2, outcome: .passed, duration: 0.3)))
                .with(.testStart(.init(at: 9.9, test: "M.R/flips()")))
                .with(.activityStart(.init(at: 10, test: "M.R/flips()", activity: "r1", name: "Refresh")))
                .with(
                    .activityStart(.init(at: 10.05, test: "M.R/flips()", activity: "r2", parent: "r1", name: "Flip"))
                )
                .with(.activityEnd(.init(at: 10.06, activity: "r2", outcome: .passed)))
                .with(.activityEnd(.init(at: 10.15, activity: "r1", outcome: .passed)))
                .with(.testEnd(.init(at: 10.4, test: "M.R/flips()", outcome: .passed, duration: 0.5)))
                .with(.testStart(.init(at: 10, test: "M.O/other()")))
                .with(.activityStart(.init(at: 10, test: "M.O/other()", activity: "o1", name: "Not asked for")))
                .with(.activityEnd(.init(at: 10.1, activity: "o1", outcome: .passed)))
                .with(.testEnd(.init(at: 10.2, test: "M.O/other()", outcome: .passed, duration: 0.2)))
                .end()
            try ledger.ingest(script.records)
            let steps = try ledger.database.steps(run: script.run, tests: ["M.Q/quotes()", "M.R/flips()"])
            #expect(Set(steps.keys) == ["M.Q/quotes()", "M.R/flips()"])
            #expect(
                steps["M.Q/quotes()"]?[1] == [.init(path: ["Quote"], startedAt: 10.1, endedAt: 10.2, outcome: .failed)])
            #expect(steps["M.Q/quotes()"]?[2]?.map(\.outcome) == [.passed])
            #expect(
                steps["M.R/flips()"]?[1] == [
                    .init(path: ["Refresh"], startedAt: 10, endedAt: 10.15, outcome: .passed),
                    .init(path: ["Refresh", "Flip"], startedAt: 10.05, endedAt: 10.06, outcome: .passed),
                ])
            #expect(throws: StoreError.self) { try ledger.database.steps(run: "no-such-run", tests: ["M.Q/quotes()"]) }
        }
    }
}
