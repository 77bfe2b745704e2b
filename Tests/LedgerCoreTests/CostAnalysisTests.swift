import LedgerCore
import Testing

/// `CostAnalysis` on values: what a run lost to flaky tests, counted once.
@Suite struct CostAnalysisTests {
    typealias Attempt = CostAnalysis.Attempt

    @Test func aRunThatPassedWithItsFlakyFailuresMutedIsNotLostWhole() {
        let attempts = [
            Attempt(test: "A/flaky", run: "r1", attempt: 1, failed: true, seconds: 2),
            Attempt(test: "A/flaky", run: "r2", attempt: 1, failed: true, seconds: 3),
            Attempt(test: "A/stable", run: "r2", attempt: 1, failed: true, seconds: 9),
        ]
        let report = CostAnalysis.report(
            runs: [
                .init(id: "r1", seconds: 60, failing: ["A/flaky"], failed: false),
                .init(id: "r2", seconds: 70, failing: ["A/flaky", "A/stable"]),
            ],
            flaky: ["A/flaky"], attempts: attempts)
        #expect(report.lostRuns.isEmpty, "r1 passed (muted); r2 failed another test too")
        #expect(report.tests == [.init(test: "A/flaky", failedAttempts: 2, failedSeconds: 5)])
        #expect(report.seconds == 5, "a test that is not flaky costs nothing here")
    }

    @Test func aLostRunIsSharedAmongTheFlakyTestsThatFailedItAndItsAttemptsAreNotCountedAgain() {
        let report = CostAnalysis.report(
            runs: [.init(id: "r1", seconds: 90, failing: ["A/one", "A/two"])], flaky: ["A/one", "A/two"],
            attempts: [Attempt(test: "A/one", run: "r1", attempt: 1, failed: true, seconds: 4)])
        #expect(report.lostRuns == [.init(run: "r1", seconds: 90, tests: ["A/one", "A/two"])])
        #expect(report.tests.map(\.lostRunSeconds) == [45, 45] && report.tests.map(\.failedAttempts) == [0, 0])
        #expect(report.seconds == 90)
    }
}
