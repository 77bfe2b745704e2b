/// Compares a test's failing attempts with its passing ones and names what separates them.
///
/// Each feature — a step's time or absence before the failure, a check's timeout or margin, a
/// captured value, the test that ran before, the host, the configuration, first try against
/// retry, the whole duration, the load, the tests that ran beside it or failed in its runs — is
/// tested for a split that chance would rarely give (Fisher's exact test, one-sided; for a measure
/// at its best threshold, corrected for the thresholds tried), with a Bonferroni correction over
/// every feature compared: the test's own, and apart from them the other tests'. Where the attempts fail is reported as
/// `where`, never as a suspect, and the most specific suspect ranks first.
public enum CulpritAnalysis {
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
        report(test: test, configuration: configuration, attempts: attempts, runs: runs, criteria: criteria, limit: nil)
    }

    /// The report's brief, as ``report(test:configuration:attempts:runs:criteria:)`` would give it:
    /// only the first suspect is put into words, which is what `report flaky` shows of each test.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - configuration: the configuration compared; `*` for every configuration.
    ///   - attempts: its attempts over the window, skipped ones among them (they are left out).
    ///   - runs: how many runs the window held.
    ///   - criteria: the thresholds of a verdict.
    /// - Returns: the verdict, the attempts compared and the likeliest suspect.
    public static func brief(
        test: String, configuration: String, attempts: [AttemptEvidence], runs: Int, criteria: Criteria = Criteria()
    ) -> CulpritReport.Brief {
        report(test: test, configuration: configuration, attempts: attempts, runs: runs, criteria: criteria, limit: 1)
            .brief
    }

    /// The report with at most `limit` suspects put into words; every one when `nil`.
    private static func report(
        test: String, configuration: String, attempts: [AttemptEvidence], runs: Int, criteria: Criteria, limit: Int?
    ) -> CulpritReport {
        let judged = attempts.filter { $0.isFailing || $0.isPassing }
        let failingCount = judged.count(where: \.isFailing)
        let features = CulpritFeatures(judged)
        var report = CulpritReport(
            test: test, configuration: configuration, failingAttempts: failingCount,
            passingAttempts: judged.count - failingCount, verdict: .tooFewFailures,
            where: place(judged, features), suspects: [], minimumFailures: criteria.minimumFailures,
            compared: compared(features, judged), runs: runs)
        report.failsOnlyBeside = failsOnlyBeside(judged, features)
        guard failingCount >= criteria.minimumFailures else { return report }
        report.suspects = suspects(judged, features, criteria, limit: limit ?? .max)
        report.verdict = report.suspects.isEmpty ? .noSeparation : .suspects
        return report
    }

    /// The tests beside its failing attempts, when it fails only beside other tests.
    private static func failsOnlyBeside(_ attempts: [AttemptEvidence], _ features: CulpritFeatures) -> [String]? {
        let alone = features.retriesAlone
        guard features.failingHadCompany, alone.of > 0, alone.passed == alone.of else { return nil }
        var counts: [String: Int] = [:]
        for attempt in attempts where attempt.isFailing {
            for test in Set((attempt.company ?? []).map(\.test)) { counts[test, default: 0] += 1 }
        }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    }

    private static func suspects(
        _ attempts: [AttemptEvidence], _ features: CulpritFeatures, _ criteria: Criteria, limit: Int
    ) -> [CulpritReport.Suspect] {
        var tested: [Candidate] = []
        for (key, counts) in features.presences.filter({ couldQualify($0.value, criteria) }).sorted(by: {
            $0.key < $1.key
        }) {
            tested.append((key, .presence(counts)))
        }
        for (key, values) in features.measures.sorted(by: { $0.key < $1.key })
        where values.failing.count >= criteria.minimumFailures {
            // A measure the same in every attempt tells nothing.
            let all = values.failing + values.passing
            guard let low = all.min(), let high = all.max(), low < high,
                let separation = Separation.higher(failing: values.failing, passing: values.passing)
            else { continue }
            tested.append((key, separation))
        }
        // Only features that could qualify are counted in the correction (Tarone's refinement of
        // Bonferroni): a step that always runs or a value seen once cannot, whatever failed. The
        // other tests of the runs (beside it, failing with it) are a family of their own: in a
        // large suite they are many, and would drown the test's own steps, checks and captures.
        let isOtherTest = { (key: CulpritFeatures.Key) in
            [.overlappingTest, .overlappingStep].contains(key.kind)
        }
        let coFailing = coFailures(features, criteria)
        let others = Double(max(1, tested.count { isOtherTest($0.key) } + coFailing.count))
        let own = Double(max(1, tested.count { !isOtherTest($0.key) }))
        let qualifies = { (separation: Separation) in
            separation.p <= criteria.significance && separation.failing.share >= criteria.minimumFailingShare
                && separation.score >= criteria.minimumScore
        }
        // One suspect per thing: a step slower and missing, a check timed out and near it, keep the surest.
        var best: [String: Candidate] = [:]
        for var candidate in tested {
            candidate.separation.p = min(1, candidate.separation.p * (isOtherTest(candidate.key) ? others : own))
            let separation = candidate.separation
            guard qualifies(separation) else { continue }
            let thing = candidate.key.kind.rawValue + "\u{0}" + thingName(candidate.key)
            // On a tie, a check that timed out says more than how near it came.
            if let kept = best[thing],
                (kept.separation.p, -kept.separation.score, kept.key.measure.rawValue)
                    <= (separation.p, -separation.score, candidate.key.measure.rawValue)
            {
                continue
            }
            best[thing] = candidate
        }
        let byRank = { (lhs: Candidate, rhs: Candidate) in
            if lhs.separation.score != rhs.separation.score { return lhs.separation.score > rhs.separation.score }
            if lhs.separation.p != rhs.separation.p { return lhs.separation.p < rhs.separation.p }
            return lhs.key < rhs.key
        }
        // A test that fails in the same runs shares a cause rather than being one: it comes after
        // anything that could be the cause, but the whole duration. It contains nothing, so the
        // co-failures keep their rank among themselves.
        let coFailed = coFailing.compactMap { candidate -> Candidate? in
            var adjusted = candidate
            adjusted.separation.p = min(1, candidate.separation.p * others)
            return qualifies(adjusted.separation) ? adjusted : nil
        }.sorted(by: byRank)
        var ordered = mostSpecificFirst(best.values.sorted(by: byRank), features)
        ordered.insert(contentsOf: coFailed, at: ordered.firstIndex { $0.key.kind == .duration } ?? ordered.endIndex)
        let chosen = ordered.prefix(limit)
        let cluster =
            chosen.contains { $0.key.kind == .coFailure } ? coFailed.map(\.key.name).sorted() : []
        return namingTheCluster(chosen.map { suspect($0.key, $0.separation, features) }, cluster: cluster)
    }

    /// A feature with its separation.
    private typealias Candidate = (key: CulpritFeatures.Key, separation: Separation)

    /// The co-failures that could qualify, with their separations. In a large suite many tests
    /// fail in the very same runs: each distinct count is tested once.
    private static func coFailures(_ features: CulpritFeatures, _ criteria: Criteria) -> [Candidate] {
        var separations: [CulpritFeatures.Counts: Separation] = [:]
        var cannot = Set<CulpritFeatures.Counts>()
        var found: [Candidate] = []
        for (test, counts) in features.coFailures where !cannot.contains(counts) {
            let separation: Separation
            if let known = separations[counts] {
                separation = known
            } else if couldQualify(counts, criteria) {
                separation = .presence(counts)
                separations[counts] = separation
            } else {
                cannot.insert(counts)
                continue
            }
            found.append((CulpritFeatures.Key(kind: .coFailure, name: test, measure: .present), separation))
        }
        return found
    }

    /// Each co-failing suspect's evidence ends with the cluster: the test and every test that fails
    /// with it.
    private static func namingTheCluster(_ suspects: [CulpritReport.Suspect], cluster: [String])
        -> [CulpritReport.Suspect]
    {
        guard !cluster.isEmpty else { return suspects }
        let naming = "; fails with \(cluster.count) test(s): " + cluster.joined(separator: ", ")
        return suspects.map { suspect in
            guard suspect.kind == .coFailure else { return suspect }
            var named = suspect
            named.evidence += naming
            return named
        }
    }

    /// Whether a presence could make a suspect at all, from its totals alone (which attempts
    /// failed aside): enough failing attempts show it, it is not in every attempt, and even with
    /// every attempt that has it failing it would reach the share, the score and the significance.
    static func couldQualify(_ counts: CulpritFeatures.Counts, _ criteria: Criteria) -> Bool {
        let (failing, passing) = (counts.failingSeen, counts.passingSeen)
        let with = counts.failingWith + counts.passingWith
        guard failing >= criteria.minimumFailures, passing > 0, with < failing + passing else { return false }
        let most = min(with, failing)
        let bestScore = Double(most) / Double(failing) - Double(with - most) / Double(passing)
        return Double(most) >= criteria.minimumFailingShare * Double(failing) && bestScore >= criteria.minimumScore
            && Separation.fisherRightTail(
                failingWith: most, failing: failing, passingWith: with - most, passing: passing)
                <= criteria.significance
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
            // Only a step or the whole duration contains anything.
            let next =
                remaining.firstIndex { candidate in
                    ![.activity, .duration].contains(candidate.key.kind)
                        || !remaining.contains { contains(candidate.key, $0.key) && $0.key != candidate.key }
                } ?? 0
            ordered.append(remaining.remove(at: next))
        }
        return ordered
    }

    private static func stepKey(_ key: CulpritFeatures.Key) -> CulpritFeatures.Key {
        CulpritFeatures.Key(kind: .activity, name: key.name, measure: .seconds)
    }

    private static func suspect(
        _ key: CulpritFeatures.Key, _ separation: Separation, _ features: CulpritFeatures
    ) -> CulpritReport.Suspect {
        var timeout: Double?
        var suggested: Double?
        var passingP99: Double?
        if key.kind == .predicate {
            var timedOut = key
            timedOut.measure = .timedOut
            let times = features.checkTimes[timedOut]
            timeout = times?.timeout
            if let times, !times.passingWaits.isEmpty {
                let p99 = Statistics.percentile(times.passingWaits, 0.99)
                passingP99 = p99
                // The timeout it would need, when the one it has is short of it.
                if p99 * 1.5 > times.timeout { suggested = p99 * 1.5 }
            }
        }
        let values = key.measure.isMeasure ? features.measures[key] : nil
        let medians = values.map { (Statistics.median($0.failing), Statistics.median($0.passing)) }
        return CulpritReport.Suspect(
            kind: key.kind, name: key.name,
            evidence: CulpritEvidence.sentence(
                key, separation, medians: medians, timeout: timeout, suggestedTimeout: suggested,
                passingP99: passingP99, besideEvent: features.besideEvents[key.name],
                context: .init(
                    failingStep: features.failingStep, retriesAlone: features.retriesAlone,
                    failingHadCompany: features.failingHadCompany)),
            score: rounded(separation.score), failing: separation.failing, passing: separation.passing,
            p: separation.p, threshold: separation.threshold, timeout: timeout, suggestedTimeout: suggested,
            precision: rounded(separation.precision), recall: rounded(separation.failing.share), step: key.step)
    }

    /// A share to three decimals: what a reader needs, and the same from every store.
    private static func rounded(_ share: Double) -> Double { (share * 1000).rounded() / 1000 }

    /// Where most failing attempts fail, with the newest such attempt's message; a tie goes to
    /// the place of the newest attempt.
    private static func place(_ attempts: [AttemptEvidence], _ features: CulpritFeatures) -> CulpritReport.Where? {
        var counts: [CulpritFeatures.Place: (count: Int, newest: Int)] = [:]
        func newer(_ a: Int, than b: Int) -> Bool { (attempts[a].startedAt, a) > (attempts[b].startedAt, b) }
        for (index, place) in features.places {
            let current = counts[place] ?? (0, index)
            counts[place] = (current.count + 1, newer(index, than: current.newest) ? index : current.newest)
        }
        guard
            let (place, found) = counts.max(by: {
                $0.value.count != $1.value.count
                    ? $0.value.count < $1.value.count : newer($1.value.newest, than: $0.value.newest)
            })
        else { return nil }
        let newest = attempts[found.newest]
        let message = newest.issues.min { ($0.at, $0.message) < ($1.at, $1.message) }?.message ?? newest.message
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
        if attempts.contains(where: { $0.beside != nil }) { compared.append("the tests that ran beside it") }
        if attempts.contains(where: { $0.failedInRun != nil }) {
            compared.append("the tests failing in the same runs")
        }
        if attempts.contains(where: { $0.load != nil }) { compared.append("the load average") }
        if attempts.contains(where: { $0.cpu != nil }) { compared.append("wall time against CPU time") }
        if attempts.contains(where: { $0.host != nil }) { compared.append("hosts") }
        if features.comparesConfigurations { compared.append("configurations") }
        if features.comparesRetries { compared.append("first tries against retries") }
        compared.append("durations")
        return compared
    }
}
