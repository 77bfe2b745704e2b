/// One evaluation of a retry-based predicate.
public struct PredicateEvaluation: Hashable, Sendable {
    /// The id of the run it happened in.
    public var run: String
    /// The revision that run tested; `nil` when unknown.
    public var revision: String?
    /// Whether the expectation was met before the timeout; `false` means it timed out.
    public var held: Bool
    /// How many times the condition was checked.
    public var attempts: Int
    /// Seconds waited until the expectation was met or the wait gave up.
    public var waited: Double
    /// The timeout it was given, in seconds.
    public var timeout: Double

    /// Creates an evaluation.
    ///
    /// - Parameters:
    ///   - run: the id of the run it happened in.
    ///   - revision: the revision that run tested, when known.
    ///   - held: whether the expectation was met before the timeout.
    ///   - attempts: how many times the condition was checked.
    ///   - waited: seconds waited.
    ///   - timeout: the timeout it was given, in seconds.
    public init(
        run: String, revision: String? = nil, held: Bool, attempts: Int, waited: Double,
        timeout: Double
    ) {
        self.run = run
        self.revision = revision
        self.held = held
        self.attempts = attempts
        self.waited = waited
        self.timeout = timeout
    }

    /// How much of its timeout it used: waited ÷ timeout; `1` when the timeout is not positive.
    public var margin: Double { timeout > 0 ? waited / timeout : 1 }
}

/// A predicate call site: test + name + expectation, with its evaluations in the window.
public struct PredicateSite: Hashable, Sendable {
    /// The stable id of the test the predicate is called in.
    public var test: String
    /// The name the predicate was given at its call site.
    public var name: String
    /// Whether it waits for the condition to hold or to stop holding.
    public var expect: PredicateExpectation
    /// Its evaluations in the window.
    public var evaluations: [PredicateEvaluation]

    /// Creates a call site with its evaluations.
    ///
    /// - Parameters:
    ///   - test: the stable id of the test.
    ///   - name: the predicate's name.
    ///   - expect: what it waits for.
    ///   - evaluations: its evaluations in the window.
    public init(test: String, name: String, expect: PredicateExpectation, evaluations: [PredicateEvaluation]) {
        self.test = test
        self.name = name
        self.expect = expect
        self.evaluations = evaluations
    }
}

/// A predicate judged flaky, at risk, broken or vacuous, with its margins.
public struct PredicateFinding: Codable, Hashable, Sendable {
    /// What is wrong with a predicate call site.
    public enum Verdict: String, Codable, Sendable {
        /// It both held and timed out in the window.
        case flaky
        /// It never timed out, but used most of its timeout: at the 95th percentile or at most, over
        /// enough evaluations.
        case atRisk = "at-risk"
        /// It timed out in most evaluations.
        case broken
        /// A `doesntHold` that held on its first attempt every time, so it proves nothing.
        case vacuous
    }

    /// The stable id of the test the predicate is called in.
    public var test: String
    /// The name the predicate was given at its call site.
    public var name: String
    /// Whether it waits for the condition to hold or to stop holding.
    public var expect: PredicateExpectation
    /// What is wrong with it.
    public var verdict: Verdict
    /// Evaluations in the window.
    public var evaluations: Int
    /// Evaluations that timed out.
    public var timeouts: Int
    /// The median margin (waited ÷ timeout).
    public var marginP50: Double
    /// The margin (waited ÷ timeout) at the 95th percentile.
    public var marginP95: Double
    /// The largest margin (waited ÷ timeout).
    public var marginMax: Double
    /// The largest timeout any evaluation was given, in seconds.
    public var timeout: Double
    /// Seconds waited at the 99th percentile.
    public var p99Waited: Double
    /// A timeout with room to spare, in seconds: the larger of ``timeout`` and twice ``p99Waited``.
    public var suggestedTimeout: Double
    /// The verdict's evidence in one sentence, for people.
    public var reason: String
}

/// Judges predicate call sites from their margins: pure.
public enum PredicateAnalysis {
    /// Judges every call site and keeps those with a finding.
    ///
    /// - Parameters:
    ///   - sites: the call sites with their evaluations.
    ///   - thresholds: the thresholds of the verdicts.
    /// - Returns: the findings, broken first, then flaky, at risk and vacuous; within a verdict the
    ///   highest ``PredicateFinding/marginP95`` first, then by test and name.
    public static func findings(_ sites: [PredicateSite], thresholds: FlakyThresholds)
        -> [PredicateFinding]
    {
        let order: [PredicateFinding.Verdict] = [.broken, .flaky, .atRisk, .vacuous]
        return sites.compactMap { judge($0, thresholds: thresholds) }.sorted {
            let left = order.firstIndex(of: $0.verdict) ?? 0
            let right = order.firstIndex(of: $1.verdict) ?? 0
            return (left, $1.marginP95, $0.test, $0.name, $0.expect.rawValue)
                < (right, $0.marginP95, $1.test, $1.name, $1.expect.rawValue)
        }
    }

    /// The finding for one site; `nil` when it is healthy or has no evaluations.
    ///
    /// The verdicts are tried in order: broken, flaky, at risk, vacuous.
    ///
    /// - Parameters:
    ///   - site: the call site with its evaluations.
    ///   - thresholds: the thresholds of the verdicts.
    /// - Returns: the finding, or `nil` when the site is healthy or has no evaluations.
    public static func judge(_ site: PredicateSite, thresholds: FlakyThresholds) -> PredicateFinding? {
        let evaluations = site.evaluations
        guard !evaluations.isEmpty else { return nil }
        let margins = evaluations.map(\.margin)
        let timeouts = evaluations.filter { !$0.held }.count
        let p95 = Statistics.percentile(margins, 0.95)
        let maxMargin = margins.max() ?? 0
        let timeout = evaluations.map(\.timeout).max() ?? 0
        let p99Waited = Statistics.percentile(evaluations.map(\.waited), 0.99)
        let timeoutShare = Double(timeouts) / Double(evaluations.count)

        let verdict: PredicateFinding.Verdict
        let reason: String
        if timeoutShare >= thresholds.predicateBrokenShare {
            verdict = .broken
            reason = "timed out in \(timeouts) of \(evaluations.count) evaluations"
        } else if timeouts > 0 && timeouts < evaluations.count {
            verdict = .flaky
            let revisions = bothOnOneRevision(evaluations)
            reason =
                "held \(evaluations.count - timeouts) times and timed out \(timeouts) times"
                + (revisions > 0 ? ", both on \(revisions) revision(s)" : " in the window")
        } else if timeouts == 0, evaluations.count >= thresholds.atRiskEvaluations,
            p95 >= thresholds.atRiskP95 || maxMargin >= thresholds.atRiskMax
        {
            verdict = .atRisk
            reason =
                "never timed out, but used \(percent(p95)) of its timeout at p95"
                + " and \(percent(maxMargin)) at most"
        } else if site.expect == .doesntHold, evaluations.allSatisfy({ $0.held && $0.attempts == 1 }) {
            verdict = .vacuous
            reason =
                "doesntHold held on its first attempt every time: it proves nothing;"
                + " check that the condition never holds instead"
        } else {
            return nil
        }
        return PredicateFinding(
            test: site.test, name: site.name, expect: site.expect, verdict: verdict,
            evaluations: evaluations.count, timeouts: timeouts,
            marginP50: Statistics.median(margins), marginP95: p95, marginMax: maxMargin,
            timeout: timeout, p99Waited: p99Waited,
            suggestedTimeout: max(timeout, 2 * p99Waited), reason: reason)
    }

    static func bothOnOneRevision(_ evaluations: [PredicateEvaluation]) -> Int {
        let byRevision = Dictionary(grouping: evaluations.filter { $0.revision != nil }) {
            $0.revision ?? ""
        }
        return byRevision.values.filter { group in
            group.contains(where: \.held) && group.contains(where: { !$0.held })
        }.count
    }

    static func percent(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }
}
