/// One evaluation of a retry-based predicate.
public struct PredicateEvaluation: Hashable, Sendable {
    public var run: String
    public var revision: String?
    public var held: Bool
    public var attempts: Int
    public var waited: Double
    public var timeout: Double

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

    /// How much of its timeout it used: waited ÷ timeout.
    public var margin: Double { timeout > 0 ? waited / timeout : 1 }
}

/// A predicate call site: test + name + expectation, with its evaluations in the window.
public struct PredicateSite: Hashable, Sendable {
    public var test: String
    public var name: String
    public var expect: PredicateExpectation
    public var evaluations: [PredicateEvaluation]

    public init(test: String, name: String, expect: PredicateExpectation, evaluations: [PredicateEvaluation]) {
        self.test = test
        self.name = name
        self.expect = expect
        self.evaluations = evaluations
    }
}

/// A predicate judged flaky, at risk, broken or vacuous, with its margins.
public struct PredicateFinding: Codable, Hashable, Sendable {
    public enum Verdict: String, Codable, Sendable {
        case flaky
        case atRisk = "at-risk"
        case broken
        case vacuous
    }

    public var test: String
    public var name: String
    public var expect: PredicateExpectation
    public var verdict: Verdict
    public var evaluations: Int
    public var timeouts: Int
    public var marginP50: Double
    public var marginP95: Double
    public var marginMax: Double
    public var timeout: Double
    public var p99Waited: Double
    public var suggestedTimeout: Double
    public var reason: String
}

/// Judges predicate call sites from their margins (DESIGN.md): pure.
public enum PredicateAnalysis {
    public static func findings(_ sites: [PredicateSite], thresholds: FlakyThresholds)
        -> [PredicateFinding]
    {
        let order: [PredicateFinding.Verdict] = [.broken, .flaky, .atRisk, .vacuous]
        return sites.compactMap { judge($0, thresholds: thresholds) }.sorted {
            let left = order.firstIndex(of: $0.verdict) ?? 0
            let right = order.firstIndex(of: $1.verdict) ?? 0
            return (left, $1.marginP95, $0.test, $0.name) < (right, $0.marginP95, $1.test, $1.name)
        }
    }

    /// The finding for one site; `nil` when it is healthy or has no evaluations.
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
