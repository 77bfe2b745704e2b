/// What `report slow` says: the slowest tests over a window of runs, and the tests whose median
/// duration grew against the window before it.
///
/// Only runs in which a test passed with no failed attempt count: a failure's duration says how
/// it failed, not how long the test takes. Noise runs are left out.
public struct SlowReport: Codable, Hashable, Sendable {
    /// A test's durations over the window.
    public struct SlowTest: Codable, Hashable, Sendable {
        public var test: String
        /// The configuration the durations are for; empty when none was named.
        public var configuration: String
        /// Runs in which it passed cleanly: the durations' count.
        public var runs: Int
        /// Duration percentiles and the longest, in seconds.
        public var p50: Double
        public var p90: Double
        public var p95: Double
        public var max: Double
        /// Who owns it, when the project names owners.
        public var owners: [String]? = nil
    }

    /// A test whose median grew by more than the threshold.
    public struct Slowdown: Codable, Hashable, Sendable {
        public var test: String
        public var configuration: String
        /// Its median over the window before, in seconds, and over how many runs.
        public var previousP50: Double
        public var previousRuns: Int
        /// Its median over the window, in seconds, and over how many runs.
        public var p50: Double
        public var runs: Int
        /// `p50 − previousP50`, in seconds.
        public var change: Double
        /// The change as a share of the previous median (0.5 is 50 % slower); `nil` from a median of 0.
        public var changeShare: Double?
        /// Who owns it, when the project names owners.
        public var owners: [String]? = nil
    }

    /// How the report was judged.
    public struct Criteria: Codable, Hashable, Sendable {
        /// A slowdown is a median grown by more than this share of the previous one…
        public var growth: Double
        /// …and by at least this many seconds.
        public var minimumChange: Double
        /// Durations each window needs before a test's change is judged.
        public var minimumRuns: Int

        /// Creates the criteria; the defaults judge a 20 % and 50 ms growth over 3 runs or more.
        public init(growth: Double = 0.2, minimumChange: Double = 0.05, minimumRuns: Int = 3) {
            self.growth = growth
            self.minimumChange = minimumChange
            self.minimumRuns = minimumRuns
        }
    }

    /// Runs in the window and in the one before, noise left out.
    public var runs: Int
    public var previousRuns: Int
    public var criteria: Criteria
    /// The slowest tests by median, slowest first.
    public var slowest: [SlowTest]
    /// The tests that slowed down, the largest change in seconds first.
    public var slowdowns: [Slowdown]
}

/// The durations of one test in one configuration, as the store gathers them.
public struct DurationHistory: Hashable, Sendable {
    public var test: String
    public var configuration: String
    /// Seconds of each clean pass in the window, and in the window before.
    public var current: [Double]
    public var previous: [Double]

    public init(test: String, configuration: String, current: [Double], previous: [Double]) {
        self.test = test
        self.configuration = configuration
        self.current = current
        self.previous = previous
    }
}

/// Judges ``SlowReport``s from durations.
public enum SlowAnalysis {
    /// - Parameters:
    ///   - histories: each test's durations.
    ///   - runs: runs in the window, noise left out.
    ///   - previousRuns: runs in the window before, noise left out.
    ///   - criteria: what counts as a slowdown.
    ///   - limit: at most this many slowest tests.
    /// - Returns: the slowest tests by median, slowest first, and the slowdowns, largest first.
    public static func report(
        _ histories: [DurationHistory], runs: Int, previousRuns: Int, criteria: SlowReport.Criteria = .init(),
        limit: Int = 20
    ) -> SlowReport {
        var slowest: [SlowReport.SlowTest] = []
        var slowdowns: [SlowReport.Slowdown] = []
        for history in histories where !history.current.isEmpty {
            let sorted = history.current.sorted()
            let p50 = Statistics.percentile(sorted, 0.5)
            slowest.append(
                SlowReport.SlowTest(
                    test: history.test, configuration: history.configuration, runs: sorted.count, p50: p50,
                    p90: Statistics.percentile(sorted, 0.9), p95: Statistics.percentile(sorted, 0.95),
                    max: sorted.last ?? 0))
            guard sorted.count >= criteria.minimumRuns, history.previous.count >= criteria.minimumRuns else {
                continue
            }
            let before = Statistics.median(history.previous)
            let change = p50 - before
            guard change >= criteria.minimumChange, change > before * criteria.growth else { continue }
            slowdowns.append(
                SlowReport.Slowdown(
                    test: history.test, configuration: history.configuration, previousP50: before,
                    previousRuns: history.previous.count, p50: p50, runs: sorted.count, change: change,
                    changeShare: before > 0 ? change / before : nil))
        }
        slowest.sort { ($1.p50, $0.test, $0.configuration) < ($0.p50, $1.test, $1.configuration) }
        slowdowns.sort { ($1.change, $0.test, $0.configuration) < ($0.change, $1.test, $1.configuration) }
        return SlowReport(
            runs: runs, previousRuns: previousRuns, criteria: criteria, slowest: Array(slowest.prefix(limit)),
            slowdowns: slowdowns)
    }
}
