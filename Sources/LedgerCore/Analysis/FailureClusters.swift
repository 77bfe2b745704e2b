/// Tests that fail in the same runs: one cause (a slow fixture, one host, a load spike) often
/// fails many flaky tests at once, and one fix mends them all.
public struct FailureCluster: Codable, Hashable, Sendable {
    /// Its tests, by stable id, sorted.
    public var tests: [String]
    /// The runs in which any of them failed.
    public var failingRuns: Int
    /// The runs in which at least two of them failed: how often they fail together.
    public var together: Int
    /// The runs read.
    public var runs: Int
    /// What separates the runs they fail in from the others (a host, a configuration, the load),
    /// where something does.
    public var suspect: CulpritReport.Suspect?
}

/// Groups tests by the runs they fail in.
///
/// Two tests are alike by the share of their failing runs they share (Jaccard's index). Groups are
/// merged, the most alike first, while the mean likeness of their tests across the two groups is
/// at least ``minimumLikeness`` — the mean, not the best pair, so that one shared run does not
/// chain unrelated tests together — and the runs the two groups fail in overlap more than chance
/// would make them (Fisher's exact test, with a Bonferroni correction over every pair of tests).
public enum FailureClustering {
    /// A run as the clusters' suspects compare it.
    public struct Run: Hashable, Sendable {
        /// The run's id.
        public var id: String
        /// When it started, in seconds since 1970.
        public var startedAt: Double
        /// Its machine, when known.
        public var host: String?
        /// Its configuration; empty when none was named.
        public var configuration: String
        /// The highest load average sampled while it ran, when known.
        public var load: Double?

        /// Creates a run from its parts.
        /// - Parameters:
        ///   - id: the run's id.
        ///   - startedAt: when it started, in seconds since 1970.
        ///   - host: its machine, when known.
        ///   - configuration: its configuration; empty for none.
        ///   - load: the highest load average sampled while it ran, when known.
        public init(id: String, startedAt: Double, host: String? = nil, configuration: String = "", load: Double? = nil)
        {
            (self.id, self.startedAt, self.host, self.configuration, self.load) = (
                id, startedAt, host, configuration, load
            )
        }
    }

    /// The failing runs a test needs to be clustered.
    public static let minimumFailures = 3
    /// The least mean likeness of two groups that are merged.
    public static let minimumLikeness = 0.4
    /// The family-wide chance of linking two tests that fail together by chance alone.
    public static let significance = 0.05

    /// The clusters of two tests or more, the one failing in the most runs first.
    /// - Parameters:
    ///   - failing: each test's failing runs, by run id.
    ///   - runs: the runs read.
    ///   - criteria: the thresholds the clusters' suspects are held to.
    /// - Returns: each cluster with its tests, how often they fail together and its suspect.
    public static func clusters(
        failing: [String: Set<String>], runs: [Run], criteria: CulpritAnalysis.Criteria = .init()
    ) -> [FailureCluster] {
        let tests = failing.filter { $0.value.count >= minimumFailures }.keys.sorted()
        let pairs = Double(max(1, tests.count * (tests.count - 1) / 2))
        var (groups, unions) = alike(tests.map { failing[$0] ?? [] }, runs: runs.count, family: pairs)
        // Σ of the likeness of every pair of members, by pair of groups: merging two groups adds
        // their rows, and a pair's mean likeness is its sum over its member pairs.
        var sums = likenesses(unions).enumerated().map { a, row in
            row.enumerated().map { b, likeness in likeness * Double(groups[a].count * groups[b].count) }
        }
        while groups.count > 1 {
            var best: (a: Int, b: Int, likeness: Double)?
            for a in groups.indices {
                for b in groups.indices where b > a {
                    let mean = sums[a][b] / Double(groups[a].count * groups[b].count)
                    // Sums in another order than pair by pair: a tie is a tie within rounding, and
                    // goes to the first pair, as it would in exact arithmetic.
                    guard mean >= minimumLikeness - 1e-12, mean > (best?.likeness ?? -1) + 1e-12,
                        overlapBeyondChance(unions[a], unions[b], runs: runs.count, family: pairs)
                    else { continue }
                    best = (a, b, mean)
                }
            }
            guard let (a, b, _) = best else { break }
            groups[a] += groups[b]
            unions[a].formUnion(unions[b])
            for c in groups.indices where c != a && c != b {
                sums[a][c] += sums[b][c]
                sums[c][a] = sums[a][c]
            }
            groups.remove(at: b)
            unions.remove(at: b)
            sums.remove(at: b)
            for row in sums.indices { sums[row].remove(at: b) }
        }
        let named = groups.map { $0.map { tests[$0] } }
        return named.filter { $0.count > 1 }.map { group in
            cluster(group.sorted(), failing: failing, runs: runs, criteria: criteria)
        }.sorted {
            ($1.failingRuns, $0.tests.joined(separator: "\n")) < ($0.failingRuns, $1.tests.joined(separator: "\n"))
        }
    }

    /// Each pair's likeness: the share of their failing runs they share.
    /// One group for each test, except that tests failing in the very same runs, which the
    /// clustering would join first (their likeness is 1), start as one group when their runs are
    /// beyond chance: a suite's lockstep failures cost one group, not one per test.
    /// - Returns: the groups (indices of `sets`), each with the runs its tests failed in.
    private static func alike(_ sets: [Set<String>], runs: Int, family: Double) -> (
        groups: [[Int]], unions: [Set<String>]
    ) {
        var groups: [[Int]] = []
        var unions: [Set<String>] = []
        var groupOf: [Set<String>: Int] = [:]
        for (index, set) in sets.enumerated() {
            if let group = groupOf[set] {
                groups[group].append(index)
                continue
            }
            if overlapBeyondChance(set, set, runs: runs, family: family) { groupOf[set] = groups.count }
            groups.append([index])
            unions.append(set)
        }
        return (groups, unions)
    }

    private static func likenesses(_ sets: [Set<String>]) -> [[Double]] {
        var likeness = Array(repeating: Array(repeating: 0.0, count: sets.count), count: sets.count)
        for a in sets.indices {
            for b in sets.indices where b > a {
                let shared = sets[a].intersection(sets[b]).count
                guard shared > 0 else { continue }
                let value = Double(shared) / Double(sets[a].union(sets[b]).count)
                (likeness[a][b], likeness[b][a]) = (value, value)
            }
        }
        return likeness
    }

    /// Whether two sets of failing runs share more runs than chance would often give them, out of
    /// `family` comparisons.
    private static func overlapBeyondChance(_ a: Set<String>, _ b: Set<String>, runs: Int, family: Double) -> Bool {
        let shared = a.intersection(b).count
        let p = Separation.fisherRightTail(
            failingWith: shared, failing: a.count, passingWith: b.count - shared, passing: max(0, runs - a.count))
        return p * family <= significance
    }

    /// A cluster's figures, and what separates the runs it fails in from the others: each run is
    /// one attempt of the cluster, failing when any of its tests failed.
    private static func cluster(
        _ tests: [String], failing: [String: Set<String>], runs: [Run], criteria: CulpritAnalysis.Criteria
    ) -> FailureCluster {
        var counts: [String: Int] = [:]
        for test in tests {
            for run in failing[test] ?? [] { counts[run, default: 0] += 1 }
        }
        let attempts = runs.map { run in
            var attempt = AttemptEvidence(
                run: run.id, attempt: 1, outcome: counts[run.id] == nil ? .passed : .failed,
                startedAt: run.startedAt, duration: nil, configuration: run.configuration, host: run.host)
            attempt.load = run.load
            return attempt
        }
        let report = CulpritAnalysis.report(
            test: tests.joined(separator: ", "), configuration: "*", attempts: attempts, runs: runs.count,
            criteria: criteria)
        return FailureCluster(
            tests: tests, failingRuns: counts.count, together: counts.values.count { $0 > 1 }, runs: runs.count,
            suspect: report.suspects.first { [.host, .configuration, .load].contains($0.kind) })
    }
}
