import Foundation

/// What `report flaky` says: flaky and broken tests, judged predicates, the noise left out.
public struct FlakyReport: Codable, Hashable, Sendable {
    public struct FlakyTest: Codable, Hashable, Sendable {
        public var test: String
        public var configuration: String
        /// Recency-weighted instability (0…1): flips and retried passes, newer runs weigh more.
        public var score: Double
        public var runs: Int
        public var failures: Int
        public var retriedPasses: Int
        public var flipRate: Double
        public var revisionsWithBoth: Int
        /// When it last flaked (ISO 8601).
        public var lastFlake: String?
        /// Chance that a run of it fails, with its standard error.
        public var failureProbability: Double
        public var uncertainty: Double
        /// The run outcomes oldest first, one letter each: P passed, F failed, R passed on retry.
        public var strip: String
    }

    public struct BrokenTest: Codable, Hashable, Sendable {
        public var test: String
        public var configuration: String
        public var runs: Int
        public var failures: Int
        public var failureRate: Double
        public var failingStreak: Int
        public var strip: String
    }

    public struct NoiseRun: Codable, Hashable, Sendable {
        public var run: String
        public var startedAt: String
        public var tests: Int
        public var failed: Int
    }

    public var runs: Int
    public var flaky: [FlakyTest]
    public var broken: [BrokenTest]
    public var recovered: [String]
    public var predicates: [PredicateFinding]
    public var noiseRuns: [NoiseRun]

    public init(
        runs: Int, flaky: [FlakyTest], broken: [BrokenTest], recovered: [String],
        predicates: [PredicateFinding], noiseRuns: [NoiseRun]
    ) {
        self.runs = runs
        self.flaky = flaky
        self.broken = broken
        self.recovered = recovered
        self.predicates = predicates
        self.noiseRuns = noiseRuns
    }
}

/// ISO 8601 text for a time in seconds since 1970.
public func iso8601(_ seconds: Double) -> String {
    Date(timeIntervalSince1970: seconds).formatted(.iso8601)
}
