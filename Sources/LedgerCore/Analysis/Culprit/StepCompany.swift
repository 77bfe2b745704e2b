/// Which other tests, and which of their steps, were running at the moment a test's failing
/// step ran: in each attempt that ran that step beside other tests, the step's window is compared
/// with each other test's attempt — running at all, inside one of its steps, or past the start of
/// one of its steps and not yet ended (what the step set up still in place, as a shared value
/// flipped and restored in a `defer`).
///
/// A failing attempt's window runs from the step's start to the failure; a passing attempt's
/// from the step's start for as long as the failing ones took to fail (the median), so that both
/// look at the same moment of the step. A retry that ran alone shows nothing about neighbours and
/// is left out: first try against retry is a suspect of its own. Where two features of one
/// neighbour are in the same attempts, only the most specific is kept: inside a step before past
/// it before merely running, a later step before an earlier one. Cost: for each attempt, its
/// company's steps.
struct StepCompany {
    /// Each feature's counts, keyed as ``CulpritFeatures`` keys them: the other test as the name,
    /// its step (for `duringStep` and `pastStep`) as the key's step.
    private(set) var presences: [CulpritFeatures.Key: CulpritFeatures.Counts] = [:]

    /// - Parameters:
    ///   - attempts: the test's attempts, failing and passing.
    ///   - step: the failing step's key (its path, as ``CulpritFeatures/keyed(_:)`` writes it).
    ///   - cutoffs: when each attempt failed; infinity for a passing one.
    init(_ attempts: [AttemptEvidence], step: String, cutoffs: [Double]) {
        let own = attempts.map { CulpritFeatures.keyed($0.steps).first { $0.key == step }?.step }
        let untilFailure = zip(own, cutoffs).compactMap { step, cutoff in
            step.flatMap { cutoff.isFinite && cutoff >= $0.startedAt ? cutoff - $0.startedAt : nil }
        }
        guard !untilFailure.isEmpty else { return }
        let offset = Statistics.median(untilFailure)
        var seen: [(failing: Bool, features: [CulpritFeatures.Key: Int])] = []
        for (index, attempt) in attempts.enumerated() {
            guard let company = attempt.company, !attempt.isRetryAlone, let own = own[index] else { continue }
            let end = attempt.isFailing ? cutoffs[index] : own.startedAt + offset
            let window = (start: own.startedAt, end: min(own.endedAt ?? .infinity, end))
            guard window.end >= window.start else { continue }
            seen.append((attempt.isFailing, Self.features(company, during: window)))
        }
        // One feature per neighbour and pattern of attempts: the most specific.
        struct Pattern: Hashable {
            var neighbour: String
            var attempts: [Bool]
        }
        var kept: [Pattern: (key: CulpritFeatures.Key, specificity: Int)] = [:]
        for key in Set(seen.flatMap(\.features.keys)) {
            let pattern = Pattern(neighbour: key.name, attempts: seen.map { $0.features[key] != nil })
            let specificity = seen.lazy.compactMap { $0.features[key] }.max() ?? 0
            if let current = kept[pattern], (current.specificity, current.key) >= (specificity, key) { continue }
            kept[pattern] = (key, specificity)
        }
        for (pattern, feature) in kept {
            var counts = CulpritFeatures.Counts()
            for (attempt, with) in zip(seen, pattern.attempts) { counts.add(with, failing: attempt.failing) }
            presences[feature.key] = counts
        }
    }

    /// What the other tests were doing at some moment of `window`, each with its specificity.
    private static func features(
        _ company: [AttemptEvidence.Company], during window: (start: Double, end: Double)
    ) -> [CulpritFeatures.Key: Int] {
        var features: [CulpritFeatures.Key: Int] = [:]
        let overlaps = { (start: Double, end: Double) in start <= window.end && end >= window.start }
        for other in company {
            let ended = other.endedAt ?? .infinity
            guard overlaps(other.startedAt, ended) else { continue }
            features[.init(kind: .overlappingStep, name: other.test, measure: .present)] = 0
            for (index, (key, step)) in CulpritFeatures.keyed(other.steps).enumerated()
            where step.startedAt <= window.end {
                if overlaps(step.startedAt, step.endedAt ?? ended) {
                    let during = CulpritFeatures.Key(
                        kind: .overlappingStep, name: other.test, measure: .duringStep, step: key)
                    features[during] = 2_000_000 + index
                }
                if ended >= window.start {
                    let past = CulpritFeatures.Key(
                        kind: .overlappingStep, name: other.test, measure: .pastStep, step: key)
                    features[past] = 1_000_000 + index
                }
            }
        }
        return features
    }
}
