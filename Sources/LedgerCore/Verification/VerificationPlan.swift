import Foundation

/// How many runs prove a flaky test fixed: enough passing runs in a row that a test still failing
/// at its measured rate would almost never give them.
///
/// A test that fails a share `p` of its runs passes `N` in a row with chance `(1 − p)^N`; the
/// smallest `N` that brings this under `1 − confidence` is `⌈ln(1 − confidence) / ln(1 − p)⌉`:
/// 59 runs for p = 5 % at 95 %, 11 for p = 25 %. Twenty runs, a common fixed count, pass a test
/// still failing 5 % of the time in 36 % of verifications.
public struct VerificationPlan: Hashable, Sendable {
    /// The failure rate to rule out, 0 < p ≤ 1.
    public var failureRate: Double
    /// The chance wanted that a test still failing at ``failureRate`` is caught.
    public var confidence: Double
    /// Passing runs in a row that reach ``confidence``.
    public var runsNeeded: Int
    /// The runs the limits allow: ``runsNeeded`` or fewer.
    public var runsAllowed: Int

    /// The plan for a rate and a confidence within the limits.
    /// - Parameters:
    ///   - failureRate: the failure rate to rule out; see ``isValid(failureRate:)``.
    ///   - confidence: the chance wanted of catching a test still failing at that rate; see
    ///     ``isValid(confidence:)``.
    ///   - maxRuns: the most runs wanted.
    ///   - budget: the most seconds wanted, with `secondsPerRun`; `nil` for no limit.
    ///   - secondsPerRun: what one run is expected to take, when known.
    public init(
        failureRate: Double, confidence: Double, maxRuns: Int = .max, budget: Double? = nil,
        secondsPerRun: Double? = nil
    ) {
        self.failureRate = failureRate
        self.confidence = confidence
        runsNeeded = Self.runsNeeded(failureRate: failureRate, confidence: confidence)
        var allowed = min(runsNeeded, max(1, maxRuns))
        if let budget, let secondsPerRun, secondsPerRun > 0, budget.isFinite {
            allowed = min(allowed, max(1, Int(min(Double(Int.max / 2), (budget / secondsPerRun).rounded(.down)))))
        }
        runsAllowed = allowed
    }

    /// Whether a rate can be ruled out by runs: 0.0001 ≤ p ≤ 1 (a rarer failure would need more than
    /// 30,000 runs at 95 %).
    public static func isValid(failureRate p: Double) -> Bool { p >= 0.0001 && p <= 1 }

    /// Whether a confidence can be reached: 0.5 ≤ c ≤ 0.9999.
    public static func isValid(confidence c: Double) -> Bool { c >= 0.5 && c <= 0.9999 }

    /// `⌈ln(1 − confidence) / ln(1 − p)⌉`, at least 1.
    public static func runsNeeded(failureRate p: Double, confidence: Double) -> Int {
        precondition(isValid(failureRate: p) && isValid(confidence: confidence), "p \(p), confidence \(confidence)")
        guard p < 1 else { return 1 }
        let exact = log1p(-confidence) / log1p(-p)
        // A quotient a rounding error above a whole number is that number.
        return max(1, Int((exact - 1e-9).rounded(.up)))
    }

    /// The confidence `runs` passing runs in a row give against a rate `p`: `1 − (1 − p)^runs`.
    public static func confidenceReached(failureRate p: Double, runs: Int) -> Double {
        1 - pow(1 - p, Double(runs))
    }

    /// What `runs` passing runs in a row show at `confidence`: that the test fails less often than
    /// this rate, the one-sided upper bound `1 − (1 − confidence)^(1/runs)` (Clopper–Pearson's with
    /// no failure seen). 59 runs at 95 % show it below 5.0 %; a test partly fixed from 5 % to 1 %
    /// passes those 59 runs 55 % of the time, and is shown below 5.0 %, not below 1 %.
    public static func remainingRateBound(runs: Int, confidence: Double) -> Double {
        guard runs > 0 else { return 1 }
        return -expm1(log1p(-confidence) / Double(runs))
    }

    /// The rate a test that failed every run (broken, not flaky) is verified against when no target
    /// is given: one pass shows it can pass, not that it is fixed.
    public static let brokenTargetRate = 0.05

    /// The runs to try before calling a failure not reproduced: `⌈3 / p⌉`, in which a test
    /// failing at `p` fails at least once with chance about 95 %.
    public static func reproductionRuns(failureRate p: Double) -> Int {
        precondition(isValid(failureRate: p), "p \(p)")
        return max(1, Int((3 / p - 1e-9).rounded(.up)))
    }
}
