import LedgerTestSupport
import Testing

@testable import LedgerCore

/// Where a test stands, from the window's flaky report and the quarantine.
@Suite struct TestStandingTests {
    static let flaky = FlakyReport.FlakyTest(
        test: "T/t", configuration: "iPad", score: 0.3, runs: 30, failures: 6, retriedPasses: 0, flipRate: 0.2,
        revisionsWithBoth: 2, lastFlake: nil, failureProbability: 0.2, uncertainty: 0.05, quietRuns: 0,
        earlierRate: 0.2, quietChance: 0, quietRunsNeeded: nil, strip: "PPF")

    static func report(flaky: [FlakyReport.FlakyTest] = [], recovered: [FlakyReport.RecoveredTest] = []) -> FlakyReport
    {
        FlakyReport(runs: 30, flaky: flaky, broken: [], recovered: recovered, predicates: [], noiseRuns: [])
    }

    static func quarantined(_ configuration: String) -> QuarantinedTest {
        QuarantinedTest(
            project: "P", test: "T/t", configuration: configuration, mode: .skip, reason: "flaky", by: "ci", since: 0)
    }

    @Test func theWorstConfigurationIsNamed() {
        var calmer = Self.flaky
        (calmer.configuration, calmer.failureProbability) = ("iPhone", 0.05)
        let runs = TestStanding.Runs(count: 30, failed: 6, newestFailed: false)
        let standing = TestStanding.of(
            "T/t", report: Self.report(flaky: [calmer, Self.flaky]), quarantine: [], runs: runs)
        #expect(standing.standing == .flaky && standing.configuration == "iPad" && standing.failureRate == 0.2)
        #expect(standing.reason == "failed 6 of 30 runs on iPad and passed the others")
    }

    @Test func aQuarantineStandsOnlyForTheConfigurationsItCovers() {
        let runs = TestStanding.Runs(count: 30, failed: 6, newestFailed: false)
        let report = Self.report(flaky: [Self.flaky])
        let everywhere = TestStanding.of("T/t", report: report, quarantine: [Self.quarantined("*")], runs: runs)
        #expect(
            everywhere.standing == .quarantined && everywhere.quarantined == .skip && everywhere.configuration == "")
        #expect(everywhere.failureRate == 0.2)
        let onIPad = TestStanding.of("T/t", report: report, quarantine: [Self.quarantined("iPad")], runs: runs)
        #expect(onIPad.standing == .quarantined && onIPad.configuration == "iPad")
        // Quarantined on the iPhone, flaky on the iPad: flaky.
        let onIPhone = TestStanding.of("T/t", report: report, quarantine: [Self.quarantined("iPhone")], runs: runs)
        #expect(onIPhone.standing == .flaky, "\(onIPhone)")
        #expect(TestStanding.exitStatus(of: [everywhere, onIPhone]) == 10)
        #expect(TestStanding.exitStatus(of: []) == 0)
    }

    @Test func aTestFailingNowIsNotHealthyAndARecoveredOneSaysSo() {
        let now = TestStanding.of(
            "T/t", report: Self.report(), quarantine: [], runs: .init(count: 12, failed: 1, newestFailed: true))
        #expect(now.standing == .broken && now.reason == "failed its newest run (1 of 12 failed): failing now")
        let recovered = FlakyReport.RecoveredTest(
            test: "T/t", configuration: "", runs: 30, quietRuns: 21, earlierRate: 0.3, quietChance: 0.0006,
            lastFlake: nil, strip: "FPFPPPP")
        let quiet = TestStanding.of(
            "T/t", report: Self.report(recovered: [recovered]), quarantine: [],
            runs: .init(count: 30, failed: 4, newestFailed: false))
        #expect(quiet.standing == .healthy && quiet.reason == "recovered: 21 quiet runs since it last flaked")
        #expect(abs((quiet.failureRate ?? 0) - 4.0 / 30) < 1e-12)
        let unknown = TestStanding.of("T/t", report: Self.report(), quarantine: [], runs: .none)
        #expect(unknown.standing == .unknown && unknown.failureRate == nil)
    }
}
