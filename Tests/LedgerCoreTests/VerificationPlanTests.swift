import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// How many runs prove a fix, and what runs conclude: by the formula, and by simulating
/// verifications of tests that still fail.
@Suite struct VerificationPlanTests {
    @Test func runsNeededFollowTheFormula() {
        #expect(VerificationPlan.runsNeeded(failureRate: 0.05, confidence: 0.95) == 59)
        #expect(VerificationPlan.runsNeeded(failureRate: 0.25, confidence: 0.95) == 11)
        #expect(VerificationPlan.runsNeeded(failureRate: 0.02, confidence: 0.95) == 149)
        #expect(VerificationPlan.runsNeeded(failureRate: 0.05, confidence: 0.99) == 90)
        // Twenty runs reach exactly 1 − 0.95²⁰, though the quotient is computed 20.000000000000014.
        #expect(VerificationPlan.runsNeeded(failureRate: 0.05, confidence: 1 - pow(0.95, 20)) == 20)
        #expect(VerificationPlan.runsNeeded(failureRate: 0.5, confidence: 0.75) == 2)
        // The smallest rate and the highest confidence stay finite.
        #expect(VerificationPlan.runsNeeded(failureRate: 0.0001, confidence: 0.9999) == 92_099)
        #expect(!VerificationPlan.isValid(failureRate: 0) && !VerificationPlan.isValid(confidence: 1))
        #expect(!VerificationPlan.isValid(failureRate: .nan) && !VerificationPlan.isValid(confidence: .nan))
        #expect(VerificationPlan.runsNeeded(failureRate: 1, confidence: 0.95) == 1)
        #expect(VerificationPlan.reproductionRuns(failureRate: 0.25) == 12)
        #expect(VerificationPlan.reproductionRuns(failureRate: 0.3) == 10)
        #expect(abs(VerificationPlan.confidenceReached(failureRate: 0.05, runs: 20) - (1 - pow(0.95, 20))) < 1e-12)
    }

    @Test func limitsAllowFewerRuns() {
        #expect(VerificationPlan(failureRate: 0.05, confidence: 0.95).runsAllowed == 59)
        #expect(VerificationPlan(failureRate: 0.05, confidence: 0.95, maxRuns: 40).runsAllowed == 40)
        // 10 minutes of 15-second runs: 40.
        let timed = VerificationPlan(failureRate: 0.05, confidence: 0.95, budget: 600, secondsPerRun: 15)
        #expect(timed.runsAllowed == 40 && timed.runsNeeded == 59)
        #expect(VerificationPlan(failureRate: 0.05, confidence: 0.95, budget: 1, secondsPerRun: 15).runsAllowed == 1)
        #expect(
            VerificationPlan(failureRate: 0.05, confidence: 0.95, budget: .infinity, secondsPerRun: 15).runsAllowed
                == 59)
    }

    @Test func runsConcludeAtTheirFirstFailure() {
        let plan = VerificationPlan(failureRate: 0.25, confidence: 0.95)
        let all = VerificationReport.judge(Array(repeating: true, count: 11), plan: plan)
        #expect(all.verdict == .fixed && all.runs == 11 && all.passed == 11 && all.failed == 0)
        let short = VerificationReport.judge(Array(repeating: true, count: 10), plan: plan)
        #expect(short.verdict == .inconclusive && short.passed == 10)
        let failing = VerificationReport.judge([true, true, false, true], plan: plan)
        #expect(failing.verdict == .stillFlaky && failing.runs == 3 && failing.passed == 2 && failing.failed == 1)
        #expect(VerificationReport.judge([true, false], plan: plan, reproducing: true).verdict == .reproduced)
        #expect(VerificationReport.judge([true, true], plan: plan, reproducing: true).verdict == .notReproduced)
    }

    /// Verifies, `trials` times, a test that still fails with chance `p` (or never, at 0): runs it
    /// until its first failure or `runs` passes, and counts the verifications that call it fixed.
    static func fixedShare(stillFailing p: Double, runs: Int, plan: VerificationPlan, trials: Int, seed: UInt64)
        -> Double
    {
        var numbers = SeededNumbers(seed: seed)
        var fixed = 0
        for _ in 0..<trials {
            var passes: [Bool] = []
            while passes.count < runs, passes.last != false {
                passes.append(!numbers.chance(p))
            }
            if VerificationReport.judge(passes, plan: plan).verdict == .fixed { fixed += 1 }
        }
        return Double(fixed) / Double(trials)
    }

    @Test(arguments: [0.02, 0.05, 0.10, 0.30])
    func aTestStillFailingIsCalledFixedAtMostOneTimeInTwenty(p: Double) {
        let plan = VerificationPlan(failureRate: p, confidence: 0.95)
        let trials = 2_000
        let share = Self.fixedShare(stillFailing: p, runs: plan.runsAllowed, plan: plan, trials: trials, seed: 41)
        // The chance is (1 − p)^N ≤ 5 %; the simulated share lies within 3 standard errors of it.
        let chance = pow(1 - p, Double(plan.runsNeeded))
        #expect(chance <= 0.05)
        #expect(share <= chance + 3 * (chance * (1 - chance) / Double(trials)).squareRoot(), "\(share)")
        // A test that never fails is always fixed.
        #expect(Self.fixedShare(stillFailing: 0, runs: plan.runsAllowed, plan: plan, trials: 200, seed: 7) == 1)
    }

    @Test func twentyRunsCallATestFailingOneTimeInTwentyFixedOneTimeInThree() {
        // The fixed-20 rule: a plan that wants 20 passes, whatever the rate.
        var twenty = VerificationPlan(failureRate: 0.05, confidence: 0.95)
        (twenty.runsNeeded, twenty.runsAllowed) = (20, 20)
        let share = Self.fixedShare(stillFailing: 0.05, runs: 20, plan: twenty, trials: 2_000, seed: 41)
        #expect(abs(share - pow(0.95, 20)) < 0.04, "\(share)")
        #expect(share > 0.3)
    }
}

extension VerificationPlanTests {
    @Test func theReportSaysNullForNoFailureAndKeepsItsKeys() throws {
        let report = VerificationReport(
            test: "T/t", configuration: "", failureRate: 0.05, rateFrom: .ledger, confidence: 0.95,
            confidenceReached: VerificationPlan.confidenceReached(failureRate: 0.05, runs: 59), runsNeeded: 59,
            runs: 59, passed: 59, failed: 0, verdict: .fixed, firstFailure: nil, seconds: 12.5)
        let json = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(report)) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "test", "configuration", "failureRate", "rateFrom", "confidence", "confidenceReached", "runsNeeded",
                "runs", "passed", "failed", "verdict", "firstFailure", "seconds", "remainingRateBelow",
            ])
        #expect(json["firstFailure"] is NSNull && json["verdict"] as? String == "fixed")
        #expect(json["remainingRateBelow"] is NSNull, "null until a verification sets it")
        #expect(try JSONDecoder().decode(VerificationReport.self, from: try JSONEncoder().encode(report)) == report)
    }

    @Test func theReleaseReasonGivesTheEvidenceAndAShortRevision() {
        var report = VerificationReport(
            test: "T/t", configuration: "", failureRate: 0.05, rateFrom: .ledger, confidence: 0.95,
            confidenceReached: 0.95, runsNeeded: 59, runs: 59, passed: 59, failed: 0, verdict: .fixed,
            firstFailure: nil, seconds: 1)
        #expect(
            report.releaseReason(revision: "1a2b3c4d5e6f7a8b")
                == "verified: 59 of 59 passed, p = 5 %, 95 %, revision 1a2b3c4")
        (report.failureRate, report.confidence, report.runsNeeded, report.passed) = (0.025, 0.99, 183, 183)
        #expect(report.releaseReason(revision: nil) == "verified: 183 of 183 passed, p = 2.5 %, 99 %")
    }
}
