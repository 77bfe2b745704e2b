/// The evidence of a suspect in words and figures.
enum CulpritEvidence {
    /// What the sentences of other tests and of retries say besides a feature's own figures.
    struct Context {
        /// The step the failing attempts fail in, by path.
        var failingStep: String?
        /// Retries that ran alone, and how many passed.
        var retriesAlone = (passed: 0, of: 0)
        /// Whether every failing attempt ran beside other tests.
        var failingHadCompany = false
    }

    static func sentence(
        _ key: CulpritFeatures.Key, _ separation: Separation, medians: (failing: Double, passing: Double)?,
        timeout: Double?, suggestedTimeout: Double?, passingP99: Double?,
        besideEvent: AttemptEvidence.Neighbour.Event? = nil, context: Context = Context()
    ) -> String {
        let split =
            "in \(separation.failing.count) of \(separation.failing.of) failing attempts and "
            + "\(separation.passing.count) of \(separation.passing.of) passing"
        let threshold = separation.threshold ?? 0
        let runs =
            "in \(separation.failing.count) of \(separation.failing.of) runs with a failing attempt and "
            + "\(separation.passing.count) of \(separation.passing.of) with a passing one"
        var sentence: String
        switch (key.kind, key.measure) {
        case (.activity, .missing): sentence = "did not run before the failure " + split
        case (.activity, .present): sentence = "ran before the failure " + split
        case (.activity, _), (.duration, _): sentence = "took ≥ \(Figures.seconds(threshold)) " + split
        case (.predicate, .timedOut):
            sentence = (key.expect == .doesntHold ? "still held at its timeout " : "timed out ") + split
        case (.predicate, _): sentence = "waited ≥ \(Figures.percent(threshold)) of its timeout " + split
        case (.capture, _): sentence = "captured " + split
        case (.precedingTest, _): sentence = "ran just before it " + split
        case (.overlappingTest, _): sentence = (besideEvent ?? .stepped).phrase + " while it ran " + split
        case (.coFailure, _): sentence = "failed in the same run " + runs
        case (.load, .ratio): sentence = "took ≥ \(Figures.times(threshold)) its CPU time " + split
        case (.load, _): sentence = "the load average was ≥ \(Figures.level(threshold)) while it ran " + split
        case (.host, _), (.configuration, _): sentence = "ran on it " + runs
        case (.overlappingStep, let measure):
            let step = "'\(context.failingStep ?? "its failing step")' ran while \(key.name) was "
            let theirs = "'\(key.step ?? "")'"
            sentence =
                step
                + (measure == .pastStep
                    ? "past \(theirs) and not yet ended " : measure == .duringStep ? "in \(theirs) " : "running ")
                + split
        case (.attempt, _):
            let alone = context.retriesAlone
            if context.failingHadCompany, alone.of > 0, alone.passed == alone.of {
                sentence =
                    "passes when retried alone (\(alone.passed) of \(alone.of)): fails only beside other tests — "
                    + "`verify --isolate`"
            } else {
                sentence = "was the first try " + split + ": retries pass"
            }
        }
        if let medians {
            let figure: (Double) -> String =
                switch key.measure {
                case .nearTimeout: Figures.percent
                case .level: Figures.level
                case .ratio: Figures.times
                default: Figures.seconds
                }
            sentence += " (median \(figure(medians.failing)) against \(figure(medians.passing)))"
        }
        if key.kind == .predicate, let timeout {
            sentence += "; timeout \(Figures.seconds(timeout))"
            if let suggestedTimeout {
                sentence += ", it would need \(Figures.seconds(suggestedTimeout)) (p99 of passing waits × 1.5)"
            } else if let passingP99 {
                sentence += ", passing attempts held within \(Figures.seconds(passingP99)) (p99)"
            }
        }
        return sentence
    }
}

extension AttemptEvidence.Neighbour.Event {
    /// What the other test did, as the evidence says it.
    var phrase: String {
        switch self {
        case .started: "started"
        case .ended: "ended"
        case .stepped: "ran a step"
        }
    }
}
