/// The evidence of a suspect in words and figures.
enum CulpritEvidence {
    static func sentence(
        _ key: CulpritFeatures.Key, _ separation: Separation, medians: (failing: Double, passing: Double)?,
        timeout: Double?, suggestedTimeout: Double?, passingP99: Double?
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
        case (.host, _), (.configuration, _): sentence = "ran on it " + runs
        case (.attempt, _): sentence = "was the first try " + split + ": retries pass"
        }
        if let medians {
            sentence +=
                key.measure == .nearTimeout
                ? " (median \(Figures.percent(medians.failing)) against \(Figures.percent(medians.passing)))"
                : " (median \(Figures.seconds(medians.failing)) against \(Figures.seconds(medians.passing)))"
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
