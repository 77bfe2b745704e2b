import Foundation
import LedgerTestSupport
import Testing

@testable import LedgerCore

/// What clean runs show: the upper bound on the failure rate left, checked against a computation of
/// its own, and on simulated fixes, whole and partial.
@Suite struct VerificationBoundTests {
    /// The rate `p` at which `runs` clean runs have chance exactly `1 − confidence`, found by
    /// bisection on `(1 − p)^runs`: no closed form shared with the code.
    static func bisectedBound(runs: Int, confidence: Double) -> Double {
        var (low, high) = (0.0, 1.0)
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if pow(1 - middle, Double(runs)) > 1 - confidence { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    @Test(arguments: [(1, 0.95), (5, 0.95), (59, 0.95), (299, 0.95), (3_000, 0.99), (11, 0.5), (20, 0.9999)])
    func theBoundIsTheRateAtWhichCleanRunsAreThatUnlikely(runs: Int, confidence: Double) {
        let bound = VerificationPlan.remainingRateBound(runs: runs, confidence: confidence)
        #expect(abs(bound - Self.bisectedBound(runs: runs, confidence: confidence)) < 1e-12, "\(bound)")
        // The runs a rate needs show the test below that rate, and one run fewer would not.
        let needed = VerificationPlan.runsNeeded(failureRate: bound, confidence: confidence)
        #expect(needed == runs || needed == runs + 1, "\(needed) for \(runs)")
        #expect(VerificationPlan.remainingRateBound(runs: 0, confidence: confidence) == 1)
    }

    @Test(arguments: [(0.01, 299), (0.05, 59), (0.25, 11)])
    func aTargetRateSizesTheRunsThatShowIt(target: Double, runs: Int) {
        let plan = VerificationPlan(failureRate: target, confidence: 0.95)
        #expect(plan.runsNeeded == runs)
        #expect(VerificationPlan.remainingRateBound(runs: runs, confidence: 0.95) < target)
        #expect(VerificationPlan.remainingRateBound(runs: runs - 1, confidence: 0.95) > target)
    }

    /// Verifications of a test whose fix took it from failing 5 % of the time to 1 %: the runs a
    /// 5 % rate needs pass it about 0.99^59 = 55 % of the time, and say only "below 5.0 %"; a
    /// target of 1 % catches the partial fix 95 % of the time; a whole fix passes every time.
    @Test(arguments: [UInt64(3), 11, 2026])
    func aPartialFixIsReportedWithTheHonestBound(seed: UInt64) {
        var numbers = SeededNumbers(seed: seed)
        func verify(failing rate: Double, plan: VerificationPlan) -> VerificationReport.Verdict {
            let passes = (0..<plan.runsAllowed).map { _ in Double.random(in: 0..<1, using: &numbers) >= rate }
            return VerificationReport.judge(passes, plan: plan).verdict
        }
        let byOldRate = VerificationPlan(failureRate: 0.05, confidence: 0.95)
        let byTarget = VerificationPlan(failureRate: 0.01, confidence: 0.95)
        let trials = 2_000
        let partlyFixed = (0..<trials).count { _ in verify(failing: 0.01, plan: byOldRate) == .fixed }
        #expect(abs(Double(partlyFixed) / Double(trials) - pow(0.99, 59)) < 0.04, "\(partlyFixed) of \(trials)")
        let bound = VerificationPlan.remainingRateBound(runs: byOldRate.runsNeeded, confidence: 0.95)
        #expect(VerificationRendering.boundPercent(bound) == "5.0 %" && bound > 0.01)
        let caught = (0..<trials).count { _ in verify(failing: 0.01, plan: byTarget) != .fixed }
        #expect(abs(Double(caught) / Double(trials) - (1 - pow(0.99, 299))) < 0.03, "\(caught) of \(trials)")
        #expect((0..<200).allSatisfy { _ in verify(failing: 0, plan: byTarget) == .fixed })
    }

    @Test func theVerdictSaysWhatWasShownAndWhatItFailedBefore() {
        var report = VerificationReport(
            test: "FeedTests.FeedTests/testRefresh", configuration: "", failureRate: 0.25, rateFrom: .ledger,
            confidence: 0.95, confidenceReached: 1 - pow(0.75, 59), runsNeeded: 59, runs: 59, passed: 59, failed: 0,
            verdict: .fixed, firstFailure: nil, seconds: 12)
        report.targetRate = 0.05
        report.remainingRateBelow = VerificationPlan.remainingRateBound(runs: 59, confidence: 0.95)
        #expect(
            VerificationRendering.text(report)
                == "FeedTests.FeedTests/testRefresh: fixed: 59 of 59 passed — at 95 % confidence it now fails less "
                + "than 5.0 % of the time (it failed 25 % before)")
        (report.failureRate, report.brokenBefore, report.verdict, report.passed) = (1, true, .inconclusive, 1)
        report.remainingRateBelow = VerificationPlan.remainingRateBound(runs: 1, confidence: 0.95)
        let broken = VerificationRendering.text(report)
        #expect(broken.contains("inconclusive: 1 runs passed of the 59 needed"), "\(broken)")
        #expect(broken.contains("fails less than 95.0 % of the time (it failed every run before)"), "\(broken)")
        #expect(broken.contains("a run that passes once is not a fix, 59 clean runs show it below 5 %"), "\(broken)")
        #expect(VerificationRendering.boundPercent(0.0099) == "0.99 %")
    }
}
