/// `report trends`: how the suite changed, period by period, over the runs of one branch.
///
/// Each period's flaky tests are those `report flaky` would have named at its end, judged over
/// the window of runs before it; what flakiness cost is counted as `report cost` counts it, with
/// those tests.
public struct TrendsReport: Codable, Equatable, Sendable {
    /// How runs are grouped into periods.
    public enum Grouping: String, Codable, Sendable, CaseIterable {
        /// A UTC day.
        case day
        /// A week, Monday to Sunday, UTC.
        case week
        /// Each run alone.
        case run

        /// When the day or week holding `at` starts, in seconds since 1970; `at` itself by run.
        public func start(of at: Double) -> Double {
            let day = (at / 86_400).rounded(.down)
            switch self {
            case .day: return day * 86_400
            // 1970-01-01 was a Thursday: three days on, each week starts on a Monday.
            case .week: return (((day + 3) / 7).rounded(.down) * 7 - 3) * 86_400
            case .run: return at
            }
        }
    }

    /// The suite's wall time over a period's runs.
    public struct WallTime: Codable, Equatable, Sendable {
        /// The median run's seconds, start to end.
        public var median: Double
        /// The 95th percentile's.
        public var p95: Double

        public init(median: Double, p95: Double) {
            (self.median, self.p95) = (median, p95)
        }
    }

    /// The pyramid's shares of the tests that ran in a period, by count.
    public struct Shares: Codable, Equatable, Sendable {
        public var unit: Double
        public var integration: Double
        public var ui: Double

        public init(unit: Double, integration: Double, ui: Double) {
            (self.unit, self.integration, self.ui) = (unit, integration, ui)
        }
    }

    /// One period's figures.
    public struct Period: Codable, Equatable, Sendable {
        /// When the period starts (ISO 8601): a day's or a Monday's midnight UTC, or the run's start.
        public var start: String
        /// The run's id, when the period is one run.
        public var run: String?
        /// Runs of the branch in the period.
        public var runs: Int
        /// Those that did not pass.
        public var failedRuns: Int
        /// `failedRuns ÷ runs`.
        public var failureRate: Double
        /// Tests flaky at the period's end.
        public var flaky: Int
        /// Flaky at its end and not at the end of the period before.
        public var newlyFlaky: [String]
        /// Flaky at the end of the period before, and not at its end.
        public var fixed: [String]
        /// Tests that first ran in the period (none are counted in the first).
        public var testsAdded: Int
        /// Tests that ran in the period before and never again.
        public var testsRemoved: Int
        /// Distinct tests that ran.
        public var tests: Int
        /// The runs' wall time.
        public var wallTime: WallTime
        /// CI seconds lost to flaky tests: runs that failed only for them, and their failed
        /// attempts and reruns in the others.
        public var lostSeconds: Double
        /// The pyramid's shares of the tests that ran.
        public var pyramid: Shares

        public init(
            start: String, run: String? = nil, runs: Int, failedRuns: Int, flaky: Int, newlyFlaky: [String],
            fixed: [String], testsAdded: Int, testsRemoved: Int, tests: Int, wallTime: WallTime, lostSeconds: Double,
            pyramid: Shares
        ) {
            (self.start, self.run, self.runs, self.failedRuns) = (start, run, runs, failedRuns)
            failureRate = runs == 0 ? 0 : Double(failedRuns) / Double(runs)
            (self.flaky, self.newlyFlaky, self.fixed) = (flaky, newlyFlaky, fixed)
            (self.testsAdded, self.testsRemoved, self.tests) = (testsAdded, testsRemoved, tests)
            (self.wallTime, self.lostSeconds, self.pyramid) = (wallTime, lostSeconds, pyramid)
        }
    }

    /// A period where a series changed most.
    public struct Change: Codable, Equatable, Sendable {
        /// The series: `flaky`, `failureRate`, `wallTime.median`, `lostSeconds`, `pyramid.unit`…
        public var series: String
        /// The period's start.
        public var start: String
        /// The value in the period before, and in this one.
        public var from: Double
        public var to: Double
        /// What happened, in words.
        public var words: String

        public init(series: String, start: String, from: Double, to: Double, words: String) {
            (self.series, self.start, self.from, self.to, self.words) = (series, start, from, to, words)
        }
    }

    /// The project.
    public var project: String
    /// The branch whose runs were read; `nil` for every branch.
    public var branch: String?
    /// How the runs were grouped.
    public var by: Grouping
    /// The first run read (ISO 8601); `nil` when there was none.
    public var since: String?
    /// The runs `report flaky`'s judgement looks back over at each period's end.
    public var window: Int
    /// The periods with runs, oldest first.
    public var periods: [Period]
    /// The periods where something changed most, the largest change first.
    public var changes: [Change]

    public init(
        project: String, branch: String?, by: Grouping, since: String?, window: Int, periods: [Period],
        changes: [Change]
    ) {
        (self.project, self.branch, self.by, self.since) = (project, branch, by, since)
        (self.window, self.periods, self.changes) = (window, periods, changes)
    }
}
