/// `report cost`: the CI time flaky tests cost over a window of runs.
///
/// A run that failed only because of flaky tests is lost whole (the job runs again), and its
/// seconds are shared among the flaky tests that failed it. In every other run, a flaky test
/// costs the time of its failed attempts and of the passing attempts that re-ran it after one.
/// Each second is counted once: `seconds` is the sum of the tests' own.
public struct CostReport: Codable, Equatable, Sendable {
    /// What one flaky test cost.
    public struct TestCost: Codable, Equatable, Sendable {
        public var test: String
        /// The test's owners, when the project names any.
        public var owners: [String]?
        /// Its failed attempts outside lost runs, and their seconds.
        public var failedAttempts: Int
        public var failedSeconds: Double
        /// The passing attempts that re-ran it after a failed one, outside lost runs, and their seconds.
        public var reruns: Int
        public var rerunSeconds: Double
        /// The runs that failed only because of flaky tests, this one among them, and its share of their seconds.
        public var lostRuns: Int
        public var lostRunSeconds: Double
        /// All of it.
        public var seconds: Double

        public init(
            test: String, owners: [String]? = nil, failedAttempts: Int = 0, failedSeconds: Double = 0, reruns: Int = 0,
            rerunSeconds: Double = 0, lostRuns: Int = 0, lostRunSeconds: Double = 0
        ) {
            (self.test, self.owners, self.failedAttempts, self.failedSeconds) = (
                test, owners, failedAttempts, failedSeconds
            )
            (self.reruns, self.rerunSeconds, self.lostRuns, self.lostRunSeconds) = (
                reruns, rerunSeconds, lostRuns, lostRunSeconds
            )
            seconds = failedSeconds + rerunSeconds + lostRunSeconds
        }
    }

    /// A run that failed only because of flaky tests.
    public struct LostRun: Codable, Equatable, Sendable {
        public var run: String
        /// Its seconds, start to end.
        public var seconds: Double
        /// The flaky tests that failed it.
        public var tests: [String]

        public init(run: String, seconds: Double, tests: [String]) {
            (self.run, self.seconds, self.tests) = (run, seconds, tests)
        }
    }

    /// The runs of the window.
    public var runs: Int
    /// The flaky tests that cost anything, the costliest first.
    public var tests: [TestCost]
    /// The runs that failed only because of flaky tests, newest first.
    public var lostRuns: [LostRun]
    /// The time lost, in seconds: the tests' own, summed.
    public var seconds: Double

    public init(runs: Int, tests: [TestCost], lostRuns: [LostRun]) {
        self.runs = runs
        self.tests = tests.sorted { ($1.seconds, $0.test) < ($0.seconds, $1.test) }
        self.lostRuns = lostRuns
        seconds = tests.reduce(0) { $0 + $1.seconds }
    }
}

/// Computes ``CostReport`` from a window's runs and its flaky tests' attempts.
public enum CostAnalysis {
    /// One attempt of a flaky test.
    public struct Attempt: Sendable {
        public var test: String
        public var run: String
        /// Its number in the run, from 1.
        public var attempt: Int
        public var failed: Bool
        public var seconds: Double

        public init(test: String, run: String, attempt: Int, failed: Bool, seconds: Double) {
            (self.test, self.run, self.attempt, self.failed, self.seconds) = (test, run, attempt, failed, seconds)
        }
    }

    /// One run of the window.
    public struct Run: Sendable {
        public var id: String
        /// Its seconds, start to end.
        public var seconds: Double
        /// The tests whose final attempt failed.
        public var failing: [String]
        /// Whether the run failed: one that passed (its failures muted by quarantine) lost nothing.
        public var failed: Bool

        public init(id: String, seconds: Double, failing: [String], failed: Bool = true) {
            (self.id, self.seconds, self.failing, self.failed) = (id, seconds, failing, failed)
        }
    }

    /// - Parameters:
    ///   - runs: the window's runs, newest first.
    ///   - flaky: the window's flaky tests.
    ///   - attempts: their attempts in the window's runs.
    /// - Returns: what each flaky test cost over the window, and the runs lost to flaky tests alone.
    public static func report(runs: [Run], flaky: Set<String>, attempts: [Attempt]) -> CostReport {
        var tallies: [String: Tally] = [:]
        var lost: [CostReport.LostRun] = []
        var lostIDs = Set<String>()
        for run in runs where run.failed && !run.failing.isEmpty && run.failing.allSatisfy(flaky.contains) {
            let tests = Set(run.failing).sorted()
            lost.append(CostReport.LostRun(run: run.id, seconds: run.seconds, tests: tests))
            lostIDs.insert(run.id)
            for test in tests {
                tallies[test, default: Tally()].lostRuns += 1
                tallies[test, default: Tally()].lostRunSeconds += run.seconds / Double(tests.count)
            }
        }
        let counted = attempts.filter { flaky.contains($0.test) && !lostIDs.contains($0.run) }
        for (key, group) in Dictionary(grouping: counted, by: { [$0.run, $0.test] }) {
            var failedBefore = false
            for attempt in group.sorted(by: { $0.attempt < $1.attempt }) {
                if attempt.failed {
                    tallies[key[1], default: Tally()].failedAttempts += 1
                    tallies[key[1], default: Tally()].failedSeconds += attempt.seconds
                    failedBefore = true
                } else if failedBefore {
                    tallies[key[1], default: Tally()].reruns += 1
                    tallies[key[1], default: Tally()].rerunSeconds += attempt.seconds
                }
            }
        }
        let tests = tallies.map { test, tally in
            CostReport.TestCost(
                test: test, failedAttempts: tally.failedAttempts, failedSeconds: tally.failedSeconds,
                reruns: tally.reruns, rerunSeconds: tally.rerunSeconds, lostRuns: tally.lostRuns,
                lostRunSeconds: tally.lostRunSeconds)
        }
        return CostReport(runs: runs.count, tests: tests, lostRuns: lost)
    }

    /// One test's cost as it is added up.
    private struct Tally {
        var failedAttempts = 0
        var failedSeconds = 0.0
        var reruns = 0
        var rerunSeconds = 0.0
        var lostRuns = 0
        var lostRunSeconds = 0.0
    }
}

extension CostReport {
    /// Each owner's share: the seconds of the tests they own, the costliest first; a test with
    /// two owners counts for both.
    public var byOwner: [(owner: String, tests: Int, seconds: Double)] {
        var owners: [String: (tests: Int, seconds: Double)] = [:]
        for test in tests {
            for owner in test.owners ?? [] {
                owners[owner, default: (0, 0)].tests += 1
                owners[owner, default: (0, 0)].seconds += test.seconds
            }
        }
        return owners.map { ($0.key, $0.value.tests, $0.value.seconds) }.sorted {
            ($1.seconds, $0.owner) < ($0.seconds, $1.owner)
        }
    }
}
