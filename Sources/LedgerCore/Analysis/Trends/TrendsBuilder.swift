import Foundation

/// Builds ``TrendsReport`` from a branch's runs fed oldest first, in one pass: the runs within the
/// flaky window are kept, each as a test's mark per test, and only tests that failed within it are
/// judged at a period's end, from their marks, so the cost grows with the runs and tests read, not
/// with periods × window.
public struct TrendsBuilder {
    /// A test as the report names and layers it.
    public struct Test: Sendable {
        public var name: String
        public var layer: Layer

        public init(name: String, layer: Layer) {
            (self.name, self.layer) = (name, layer)
        }
    }

    /// A run, as its summary and end say.
    public struct Run: Sendable {
        public var id: String
        /// When it started, in seconds since 1970.
        public var at: Double
        public var revision: String?
        public var configuration: String
        /// Seconds from its start to its end.
        public var seconds: Double
        /// Whether it ended without passing.
        public var failed: Bool

        public init(id: String, at: Double, revision: String?, configuration: String, seconds: Double, failed: Bool) {
            (self.id, self.at, self.revision, self.configuration) = (id, at, revision, configuration)
            (self.seconds, self.failed) = (seconds, failed)
        }
    }

    /// One test's result in a run.
    public struct Entry: Sendable {
        /// The test's index in the builder's tests.
        public var test: Int
        /// The final attempt's outcome.
        public var final: Outcome
        public var anyPassed: Bool
        public var anyFailed: Bool
        /// Seconds over all its attempts.
        public var seconds: Double

        public init(test: Int, final: Outcome, anyPassed: Bool, anyFailed: Bool, seconds: Double) {
            (self.test, self.final, self.anyPassed, self.anyFailed, self.seconds) = (
                test, final, anyPassed, anyFailed, seconds
            )
        }
    }

    /// A test's result in a run within the window: what its flaky judgement needs of it.
    private struct Mark {
        /// The final attempt's outcome; `nil` when the test did not run (or the run was noise).
        var final: Outcome?
        var anyPassed = false
        var anyFailed = false
    }

    /// A run within the window: its configuration and every test's mark in it.
    private struct WindowRun {
        var index: Int
        var configuration: String
        var marks: [Mark]
    }

    /// What a period's end needs of one of its runs to count the time flakiness cost.
    private struct RunCost {
        var failed: Bool
        var seconds: Double
        var failing: [Int]
        var troubled: [(test: Int, seconds: Double)]
    }

    private let project: String
    private let branch: String?
    private let grouping: TrendsReport.Grouping
    private let window: Int
    private let thresholds: FlakyThresholds
    private let tests: [Test]

    private var runs: [(id: String, at: Double, revision: String?)] = []
    /// The newest runs, at most a window's: run `index` at `windowRuns[index % window]`.
    private var windowRuns: [WindowRun] = []
    /// Per configuration, the index of the newest run in which each test had an attempt fail; -1 for none.
    private var lastFailures: [String: [Int]] = [:]
    private var firstPeriod: [Int]
    private var lastPeriod: [Int]

    private var period: (start: Double, run: String?)?
    private var periodRuns: [RunCost] = []
    private var flaky: Set<Int> = []
    private var periods: [TrendsReport.Period] = []
    private var newlyFlakyByPeriod: [[Int]] = []

    /// - Parameters:
    ///   - project: the project.
    ///   - branch: the branch whose runs are fed; `nil` for every branch.
    ///   - grouping: how runs are grouped into periods.
    ///   - window: the runs the flaky judgement looks back over at each period's end.
    ///   - thresholds: the flaky thresholds.
    ///   - tests: every test an entry can name, by index.
    public init(
        project: String, branch: String?, grouping: TrendsReport.Grouping, window: Int, thresholds: FlakyThresholds,
        tests: [Test]
    ) {
        (self.project, self.branch, self.grouping) = (project, branch, grouping)
        (self.window, self.thresholds, self.tests) = (max(1, window), thresholds, tests)
        firstPeriod = Array(repeating: -1, count: tests.count)
        lastPeriod = Array(repeating: -1, count: tests.count)
    }

    /// Adds the next run, newer than every run before it, with every test's result in it.
    public mutating func add(_ run: Run, entries: [Entry]) {
        let start = grouping.start(of: run.at)
        if grouping == .run || period?.start != start {
            closePeriod()
            period = (start, grouping == .run ? run.id : nil)
        }
        let index = runs.count
        runs.append((run.id, run.at, run.revision))
        let failedTests = entries.count { $0.final.isFailure }
        let noise = RunHealth(run: run.id, at: run.at, tests: entries.count, failed: failedTests).isNoise(thresholds)
        var cost = RunCost(failed: run.failed, seconds: run.seconds, failing: [], troubled: [])
        let number = periods.count
        // The run leaving the window lends its marks' storage to the run coming in.
        var marks: [Mark] = []
        if windowRuns.count == window { swap(&marks, &windowRuns[index % window].marks) }
        marks.removeAll(keepingCapacity: true)
        marks.append(contentsOf: repeatElement(Mark(), count: tests.count))
        var lastFailure =
            lastFailures.removeValue(forKey: run.configuration) ?? Array(repeating: -1, count: tests.count)
        for entry in entries {
            if firstPeriod[entry.test] < 0 { firstPeriod[entry.test] = number }
            lastPeriod[entry.test] = number
            if entry.final.isFailure { cost.failing.append(entry.test) }
            if entry.anyFailed { cost.troubled.append((entry.test, entry.seconds)) }
            guard !noise else { continue }
            marks[entry.test] = Mark(final: entry.final, anyPassed: entry.anyPassed, anyFailed: entry.anyFailed)
            if entry.anyFailed { lastFailure[entry.test] = index }
        }
        lastFailures[run.configuration] = lastFailure
        let kept = WindowRun(index: index, configuration: run.configuration, marks: marks)
        if windowRuns.count < window { windowRuns.append(kept) } else { windowRuns[index % window] = kept }
        periodRuns.append(cost)
    }

    /// The report of every run added.
    public mutating func report() -> TrendsReport {
        closePeriod()
        var periods = self.periods
        for number in periods.indices {
            periods[number].testsAdded = number == 0 ? 0 : firstPeriod.count { $0 == number }
            periods[number].testsRemoved = number == 0 ? 0 : lastPeriod.count { $0 == number - 1 }
        }
        return TrendsReport(
            project: project, branch: branch, by: grouping, since: runs.first.map { iso8601($0.at) }, window: window,
            periods: periods,
            changes: TrendsChanges.find(
                periods, grouping: grouping, newlyFlaky: newlyFlakyByPeriod.map { $0.map { tests[$0].name } }))
    }

    /// The samples of `test` in the runs of `configuration` within the window, oldest first.
    private func samples(of test: Int, in configuration: String) -> [RunSample] {
        let oldest = windowRuns.count < window ? 0 : (runs.count % window)
        return (0..<windowRuns.count).compactMap { offset in
            let kept = windowRuns[(oldest + offset) % windowRuns.count]
            guard kept.configuration == configuration, let final = kept.marks[test].final else { return nil }
            let run = runs[kept.index]
            return RunSample(
                run: run.id, at: run.at, revision: run.revision, final: final,
                anyAttemptPassed: kept.marks[test].anyPassed, anyAttemptFailed: kept.marks[test].anyFailed)
        }
    }

    /// Judges the tests that failed within the window, and keeps the period's figures.
    private mutating func closePeriod() {
        guard let period, let end = runs.indices.last else { return }
        let first = end - window + 1
        var flakyNow = Set<Int>()
        for (configuration, lastFailure) in lastFailures.sorted(by: { $0.key < $1.key }) {
            for test in lastFailure.indices where lastFailure[test] >= first && !flakyNow.contains(test) {
                let history = TestHistory(
                    test: tests[test].name, configuration: configuration,
                    samples: samples(of: test, in: configuration))
                if case .flaky = FlakinessAnalysis.judge(history, now: runs[end].at, thresholds: thresholds) {
                    flakyNow.insert(test)
                }
            }
        }
        let number = periods.count
        let ran = lastPeriod.indices.filter { lastPeriod[$0] == number }
        var layers: [Layer: Int] = [:]
        for test in ran { layers[tests[test].layer, default: 0] += 1 }
        let share = { (layer: Layer) in ran.isEmpty ? 0 : Double(layers[layer] ?? 0) / Double(ran.count) }
        let seconds = periodRuns.map(\.seconds)
        let newly = flakyNow.subtracting(flaky).sorted { tests[$0].name < tests[$1].name }
        periods.append(
            TrendsReport.Period(
                start: iso8601(period.start), run: period.run, runs: periodRuns.count,
                failedRuns: periodRuns.count(where: \.failed), flaky: Set(flakyNow.map { tests[$0].name }).count,
                newlyFlaky: newly.map { tests[$0].name },
                fixed: flaky.subtracting(flakyNow).map { tests[$0].name }.sorted(), testsAdded: 0, testsRemoved: 0,
                tests: ran.count,
                wallTime: .init(median: Statistics.median(seconds), p95: Statistics.percentile(seconds, 0.95)),
                lostSeconds: Self.lostSeconds(periodRuns, flaky: flakyNow),
                pyramid: .init(unit: share(.unit), integration: share(.integration), ui: share(.ui))))
        newlyFlakyByPeriod.append(newly)
        flaky = flakyNow
        periodRuns = []
        self.period = nil
    }

    /// `report cost`'s count over a period's runs: a run that failed only for flaky tests is lost
    /// whole; in the others, a flaky test costs the seconds of its runs in which an attempt failed.
    private static func lostSeconds(_ runs: [RunCost], flaky: Set<Int>) -> Double {
        runs.reduce(0) { total, run in
            if run.failed, !run.failing.isEmpty, run.failing.allSatisfy(flaky.contains) { return total + run.seconds }
            return total + run.troubled.filter { flaky.contains($0.test) }.reduce(0) { $0 + $1.seconds }
        }
    }
}
