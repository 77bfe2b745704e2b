import LedgerTestSupport
import Testing

@testable import LedgerCore

/// Where a test stands, from the window's flaky report and the quarantine.
@Suite struct TestStandingTests {
    @Test func quarantineComesBeforeBrokenAndTheWorstConfigurationIsNamed() {
        let flaky = FlakyReport.FlakyTest(
            test: "T/t", configuration: "iPad", score: 0.3, runs: 30, failures: 6, retriedPasses: 0, flipRate: 0.2,
            revisionsWithBoth: 2, lastFlake: nil, failureProbability: 0.2, uncertainty: 0.05, quietRuns: 0,
            earlierRate: 0.2, quietChance: 0, quietRunsNeeded: nil, strip: "PPF")
        var calmer = flaky
        (calmer.configuration, calmer.failureProbability) = ("iPhone", 0.05)
        let report = FlakyReport(
            runs: 30, flaky: [calmer, flaky], broken: [], recovered: [], predicates: [], noiseRuns: [])
        let standing = TestStanding.of("T/t", report: report, quarantine: [], runs: 30)
        #expect(standing.standing == .flaky && standing.configuration == "iPad" && standing.failureRate == 0.2)
        #expect(standing.reason == "failed 6 of 30 runs on iPad and passed the others")
        let entry = QuarantinedTest(
            project: "P", test: "T/t", configuration: "*", mode: .skip, reason: "flaky", by: "ci", since: 0,
            until: nil, automatic: false)
        let held = TestStanding.of("T/t", report: report, quarantine: [entry], runs: 30)
        #expect(held.standing == .quarantined && held.quarantined == .skip && held.configuration == "")
        #expect(TestStanding.exitStatus(of: [held, standing]) == 10)
        #expect(TestStanding.exitStatus(of: []) == 0)
    }
}
