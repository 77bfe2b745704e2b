import Foundation

/// What verifying a flaky test's fix found: whether it holds, from as many runs as its failure
/// rate demands, or (reproducing) whether its failure can be seen at all.
///
/// Its JSON is a public contract: keys are only ever added. `firstFailure` is `null`, not left
/// out, when no run failed.
public struct VerificationReport: Codable, Hashable, Sendable {
    /// The conclusion.
    public enum Verdict: String, Codable, Sendable, CaseIterable {
        /// Every run needed passed.
        case fixed
        /// A run failed.
        case stillFlaky = "still-flaky"
        /// Every run passed, but the limits allowed fewer than needed.
        case inconclusive
        /// Reproducing: the test failed within its runs.
        case reproduced
        /// Reproducing: it did not fail within them.
        case notReproduced = "not-reproduced"
    }

    /// Where the failure rate came from.
    public enum RateSource: String, Codable, Sendable {
        /// The test's failing attempts over the ledger's window.
        case ledger
        /// Given by the person or agent verifying.
        case flag
    }

    /// The first run that failed.
    public struct FirstFailure: Codable, Hashable, Sendable {
        /// The verification run's id.
        public var run: String
        /// The attempt in it: the run's number, from 1.
        public var attempt: Int
        /// Its failure message, when it had one.
        public var message: String?
        /// The test's culprit from the ledger, when one was named.
        public var culprit: CulpritReport.Brief?

        /// Creates a first failure.
        public init(run: String, attempt: Int, message: String?, culprit: CulpritReport.Brief?) {
            (self.run, self.attempt, self.message, self.culprit) = (run, attempt, message, culprit)
        }
    }

    /// The test's stable id.
    public var test: String
    /// The configuration whose rate was used; empty when none was named.
    public var configuration: String
    /// The failure rate ruled out (or, reproducing, looked for).
    public var failureRate: Double
    /// Where it came from.
    public var rateFrom: RateSource
    /// The confidence wanted.
    public var confidence: Double
    /// The confidence the passing runs reached: `1 − (1 − p)^passed`.
    public var confidenceReached: Double
    /// The runs the confidence needs (reproducing: the runs to try, `⌈3 / p⌉`).
    public var runsNeeded: Int
    /// The runs made.
    public var runs: Int
    /// Of those, the ones that passed.
    public var passed: Int
    /// Of those, the ones that failed: 0 or 1, as it stops at the first.
    public var failed: Int
    /// The conclusion.
    public var verdict: Verdict
    /// The first run that failed; `nil` when none did.
    public var firstFailure: FirstFailure?
    /// Seconds the runs took, building aside.
    public var seconds: Double
    /// Tests run before it each time, as in its failing attempts; `nil` (left out) for none.
    public var runsBefore: [String]?
    /// The failures' conditions this run lacked, in words; `nil` (left out) for none.
    public var missingConditions: [String]?
    /// Tests run beside it each time, for a test that fails only beside other tests; `nil` (left
    /// out) for none.
    public var runsBeside: [String]?
    /// The failure rate the clean runs show the test below, at ``confidence``:
    /// ``VerificationPlan/remainingRateBound(runs:confidence:)`` of the runs passed. `nil` (`null`)
    /// when a run failed, and when reproducing.
    public var remainingRateBelow: Double?
    /// The rate the runs were sized to show the test below, when it is not ``failureRate``:
    /// `--target-rate`'s, or for a test that failed every run ``VerificationPlan/brokenTargetRate``;
    /// `nil` (left out) otherwise.
    public var targetRate: Double?
    /// Whether the test failed every run before (broken, not flaky); `nil` (left out) when not.
    public var brokenBefore: Bool?

    /// Creates a report from its parts.
    public init(
        test: String, configuration: String, failureRate: Double, rateFrom: RateSource, confidence: Double,
        confidenceReached: Double, runsNeeded: Int, runs: Int, passed: Int, failed: Int, verdict: Verdict,
        firstFailure: FirstFailure?, seconds: Double
    ) {
        (self.test, self.configuration, self.failureRate, self.rateFrom) = (test, configuration, failureRate, rateFrom)
        (self.confidence, self.confidenceReached, self.runsNeeded) = (confidence, confidenceReached, runsNeeded)
        (self.runs, self.passed, self.failed, self.verdict) = (runs, passed, failed, verdict)
        (self.firstFailure, self.seconds) = (firstFailure, seconds)
    }

    enum CodingKeys: String, CodingKey {
        case test, configuration, failureRate, rateFrom, confidence, confidenceReached, runsNeeded, runs, passed
        case failed, verdict, firstFailure, seconds, runsBefore, missingConditions, runsBeside, remainingRateBelow
        case targetRate, brokenBefore
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(test, forKey: .test)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(failureRate, forKey: .failureRate)
        try container.encode(rateFrom, forKey: .rateFrom)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(confidenceReached, forKey: .confidenceReached)
        try container.encode(runsNeeded, forKey: .runsNeeded)
        try container.encode(runs, forKey: .runs)
        try container.encode(passed, forKey: .passed)
        try container.encode(failed, forKey: .failed)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(firstFailure, forKey: .firstFailure)
        try container.encode(seconds, forKey: .seconds)
        try container.encodeIfPresent(runsBefore.flatMap { $0.isEmpty ? nil : $0 }, forKey: .runsBefore)
        try container.encodeIfPresent(
            missingConditions.flatMap { $0.isEmpty ? nil : $0 }, forKey: .missingConditions)
        try container.encodeIfPresent(runsBeside.flatMap { $0.isEmpty ? nil : $0 }, forKey: .runsBeside)
        try container.encode(remainingRateBelow, forKey: .remainingRateBelow)
        try container.encodeIfPresent(targetRate, forKey: .targetRate)
        try container.encodeIfPresent(brokenBefore == true ? true : nil, forKey: .brokenBefore)
    }
}

extension VerificationReport {
    /// The verdict of runs made under `plan`, in order, each passed or not; the runs stop at the
    /// first failure.
    /// - Parameters:
    ///   - passes: each run's result, `true` for a pass, up to and including the first failure.
    ///   - plan: the plan they were made under.
    ///   - reproducing: whether the runs look for the failure rather than rule it out.
    /// - Returns: the verdict, and the runs, passes and failures counted.
    public static func judge(_ passes: [Bool], plan: VerificationPlan, reproducing: Bool = false) -> (
        verdict: Verdict, runs: Int, passed: Int, failed: Int
    ) {
        let made = passes.firstIndex(of: false).map { Array(passes[...$0]) } ?? passes
        let passed = made.count { $0 }
        let failed = made.count - passed
        let verdict: Verdict =
            switch (reproducing, failed > 0) {
            case (true, true): .reproduced
            case (true, false): .notReproduced
            case (false, true): .stillFlaky
            case (false, false): passed >= plan.runsNeeded ? .fixed : .inconclusive
            }
        return (verdict, made.count, passed, failed)
    }
}

extension VerificationReport {
    /// The quarantine's reason for releasing a test found fixed: "verified: 59 of 59 passed,
    /// p = 5 %, 95 %, revision 1a2b3c4".
    /// - Parameter revision: the revision verified, when known; shortened to 7 characters.
    /// - Returns: the reason, naming the runs, the rate, the confidence and the revision.
    public func releaseReason(revision: String?) -> String {
        let verified =
            "verified: \(passed) of \(runsNeeded) passed, p = \(Self.percent(failureRate)), \(Self.percent(confidence))"
        guard let revision, !revision.isEmpty else { return verified }
        return "\(verified), revision \(revision.prefix(7))"
    }

    /// A share as a percentage: `5 %`, `2.5 %`.
    public static func percent(_ share: Double) -> String {
        let value = share * 100
        return value.rounded() == value ? "\(Int(value)) %" : String(format: "%.1f %%", value)
    }
}

extension VerificationReport {
    /// The label of a verification run that holds `test`'s verdict: `testledger.verdict:` and the
    /// test's id.
    public static func verdictLabel(of test: String) -> String { verdictLabelPrefix + test }

    /// What every verdict label of a run starts with.
    public static let verdictLabelPrefix = "testledger.verdict:"
}
