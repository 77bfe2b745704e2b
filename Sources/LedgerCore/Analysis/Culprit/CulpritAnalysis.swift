/// Compares a test's failing attempts with its passing ones and names what separates them.
///
/// Each feature — a step's time or absence before the failure, a check's timeout or margin, a
/// captured value, the test that ran before, the host, the configuration, first try against
/// retry, the whole duration — is tested for a split that chance would rarely give (Fisher's exact
/// test, one-sided; for a measure at its best threshold, corrected for the thresholds tried), with
/// a Bonferroni correction over every feature compared. Where the attempts fail is reported as
/// `where`, never as a suspect, and the most specific suspect ranks first.
public enum CulpritAnalysis {
    /// How many of the newest runs a culprit is looked for in, unless told otherwise.
    public static let defaultRuns = 60

    /// The thresholds of a verdict.
    public struct Criteria: Hashable, Sendable {
        /// The failing attempts a verdict needs.
        public var minimumFailures = 5
        /// The family-wide chance of naming a suspect that has nothing to do with the failures.
        public var significance = 0.05
        /// The least share of the failing attempts (where it could be seen) a suspect is in.
        public var minimumFailingShare = 0.5
        /// The least failing share less passing share.
        public var minimumScore = 0.25

        /// The defaults: 5 failing attempts, 5 %, half the failures, a score of 0.25.
        public init() {}
    }

    /// The report for one test from its attempts.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - configuration: the configuration compared; `*` for every configuration.
    ///   - attempts: its attempts over the window, skipped ones among them (they are left out).
    ///   - runs: how many runs the window held.
    ///   - criteria: the thresholds of a verdict.
    /// - Returns: the verdict, where it fails, and the suspects, the likeliest first.
    public static func report(
        test: String, configuration: String, attempts: [AttemptEvidence], runs: Int, criteria: Criteria = Criteria()
    ) -> CulpritReport {
        let judged = attempts.filter { $0.isFailing || $0.isPassing }
        let failingCount = judged.count(where: \.isFailing)
        let features = CulpritFeatures(judged)
        var report = CulpritReport(
            test: test, configuration: configuration, failingAttempts: failingCount,
            passingAttempts: judged.count - failingCount, verdict: .tooFewFailures,
            where: place(judged, features), suspects: [], minimumFailures: criteria.minimumFailures,
            compared: compared(features, judged), runs: runs)
        guard failingCount >= criteria.minimumFailures else { return report }
        report.suspects = suspects(judged, features, criteria)
        report.verdict = report.suspects.isEmpty ? .noSeparation : .suspects
        return report
    }

    private static func suspects(
        _ attempts: [AttemptEvidence], _ features: CulpritFeatures, _ criteria: Criteria
    ) -> [CulpritReport.Suspect] {
        var keys = Set<CulpritFeatures.Key>()
        for row in features.values { keys.formUnion(row.keys) }
        var tested: [(key: CulpritFeatures.Key, separation: Separation)] = []
        for key in keys.sorted() {
            var failing: [Double] = []
            var passing: [Double] = []
            for (index, attempt) in attempts.enumerated() {
                guard let value = features.values[index][key] else { continue }
                if attempt.isFailing { failing.append(value) } else { passing.append(value) }
            }
            guard failing.count >= criteria.minimumFailures, !passing.isEmpty else { continue }
            let separation: Separation?
            switch key.measure {
            case .present, .missing, .timedOut:
                separation = .presence(failing: failing.map { $0 > 0 }, passing: passing.map { $0 > 0 })
            case .seconds, .nearTimeout:
                separation = .higher(failing: failing, passing: passing)
            }
            if let separation { tested.append((key, separation)) }
        }
        let family = Double(max(1, tested.count))
        // One suspect per thing: a step slower and missing, a check timed out and near it, keep the surest.
        var best: [String: (key: CulpritFeatures.Key, separation: Separation)] = [:]
        for var candidate in tested {
            candidate.separation.p = min(1, candidate.separation.p * family)
            let separation = candidate.separation
            guard separation.p <= criteria.significance, separation.failing.share >= criteria.minimumFailingShare,
                separation.score >= criteria.minimumScore
            else { continue }
            let thing = candidate.key.kind.rawValue + "\u{0}" + thingName(candidate.key)
            // On a tie, a check that timed out says more than how near it came.
            if let kept = best[thing],
                (kept.separation.p, -kept.separation.score, kept.key.measure == .timedOut ? 0 : 1)
                    <= (separation.p, -separation.score, candidate.key.measure == .timedOut ? 0 : 1)
            {
                continue
            }
            best[thing] = candidate
        }
        let ranked = best.values.sorted {
            ($1.separation.score, $0.separation.p, $0.key) < ($0.separation.score, $1.separation.p, $1.key)
        }
        return mostSpecificFirst(ranked, features).map { suspect($0.key, $0.separation, attempts, features) }
    }

    /// The thing a feature is about: a captured field (whatever its value), else its name.
    private static func thingName(_ key: CulpritFeatures.Key) -> String {
        guard key.kind == .capture, let equals = key.name.range(of: " = ") else {
            return key.name + (key.expect.map { " " + $0.rawValue } ?? "")
        }
        return String(key.name[..<equals.lowerBound])
    }

    /// Orders `ranked` so that nothing comes before a suspect it contains (a step before the steps,
    /// checks and captures inside it), the whole duration last; otherwise as ranked.
    private static func mostSpecificFirst(
        _ ranked: [(key: CulpritFeatures.Key, separation: Separation)], _ features: CulpritFeatures
    ) -> [(key: CulpritFeatures.Key, separation: Separation)] {
        func contains(_ outer: CulpritFeatures.Key, _ inner: CulpritFeatures.Key) -> Bool {
            if outer.kind == .duration { return inner.kind != .duration }
            guard outer.kind == .activity, let outerPath = features.stepPaths[stepKey(outer)] else { return false }
            let innerPath =
                inner.kind == .activity ? features.stepPaths[stepKey(inner)] : features.stepPaths[inner]
            guard let innerPath, innerPath.starts(with: outerPath) else { return false }
            return inner.kind != .activity || innerPath.count > outerPath.count
        }
        var remaining = ranked
        var ordered: [(key: CulpritFeatures.Key, separation: Separation)] = []
        while !remaining.isEmpty {
            let next =
                remaining.firstIndex { candidate in
                    !remaining.contains { $0.key != candidate.key && contains(candidate.key, $0.key) }
                } ?? 0
            ordered.append(remaining.remove(at: next))
        }
        return ordered
    }

    private static func stepKey(_ key: CulpritFeatures.Key) -> CulpritFeatures.Key {
        CulpritFeatures.Key(kind: .activity, name: key.name, measure: .seconds)
    }

    private static func suspect(
        _ key: CulpritFeatures.Key, _ separation: Separation, _ attempts: [AttemptEvidence],
        _ features: CulpritFeatures
    ) -> CulpritReport.Suspect {
        var timeout: Double?
        var suggested: Double?
        if key.kind == .predicate {
            let times = features.checkTimes[
                CulpritFeatures.Key(
                    kind: .predicate, name: key.name, measure: .timedOut, expect: key.expect)]
            timeout = times?.timeout
            suggested = times.flatMap {
                $0.passingWaits.isEmpty ? nil : Statistics.percentile($0.passingWaits, 0.99) * 1.5
            }
        }
        let medians = medians(key, attempts, features)
        return CulpritReport.Suspect(
            kind: key.kind, name: key.name,
            evidence: CulpritEvidence.sentence(
                key, separation, medians: medians, timeout: timeout, suggestedTimeout: suggested),
            score: rounded(separation.score), failing: separation.failing,
            passing: separation.passing, p: separation.p, threshold: separation.threshold, timeout: timeout,
            suggestedTimeout: suggested, precision: rounded(separation.precision),
            recall: rounded(separation.failing.share))
    }

    /// A share to three decimals: what a reader needs, and the same from every store.
    private static func rounded(_ share: Double) -> Double { (share * 1000).rounded() / 1000 }

    /// The failing and passing medians of a measure; `nil` for a presence.
    private static func medians(
        _ key: CulpritFeatures.Key, _ attempts: [AttemptEvidence], _ features: CulpritFeatures
    ) -> (failing: Double, passing: Double)? {
        guard key.measure == .seconds || key.measure == .nearTimeout else { return nil }
        var failing: [Double] = []
        var passing: [Double] = []
        for (index, attempt) in attempts.enumerated() {
            guard let value = features.values[index][key] else { continue }
            if attempt.isFailing { failing.append(value) } else { passing.append(value) }
        }
        return (Statistics.median(failing), Statistics.median(passing))
    }

    /// Where most failing attempts fail, with the newest such attempt's message.
    private static func place(_ attempts: [AttemptEvidence], _ features: CulpritFeatures) -> CulpritReport.Where? {
        var counts: [CulpritFeatures.Place: (count: Int, newest: Int)] = [:]
        for (index, place) in features.places {
            let current = counts[place]
            let newest = current.map { attempts[$0.newest].startedAt >= attempts[index].startedAt ? $0.newest : index }
            counts[place] = ((current?.count ?? 0) + 1, newest ?? index)
        }
        guard
            let (place, found) = counts.max(by: {
                ($0.value.count, attempts[$0.value.newest].startedAt) < (
                    $1.value.count, attempts[$1.value.newest].startedAt
                )
            })
        else { return nil }
        let newest = attempts[found.newest]
        let message = newest.issues.min { $0.at < $1.at }?.message ?? newest.message
        return CulpritReport.Where(
            message: message, file: place.file, line: place.line, activity: place.activity, attempts: found.count)
    }

    private static func compared(_ features: CulpritFeatures, _ attempts: [AttemptEvidence]) -> [String] {
        var compared: [String] = []
        let counts = features.counts
        if counts.steps > 0 { compared.append("\(counts.steps) step(s)") }
        if counts.checks > 0 { compared.append("\(counts.checks) check(s)") }
        if counts.fields > 0 { compared.append("\(counts.fields) captured field(s)") }
        if attempts.contains(where: { $0.preceding != nil }) { compared.append("the test run just before") }
        if attempts.contains(where: { $0.host != nil }) { compared.append("hosts") }
        if Set(attempts.map(\.configuration)).count > 1 { compared.append("configurations") }
        if attempts.contains(where: { $0.attempt > 1 }) { compared.append("first tries against retries") }
        compared.append("durations")
        return compared
    }
}
