/// One run of one test: its attempts in order (the last is the final outcome).
public struct RunSample: Hashable, Sendable {
    public var run: String
    /// When the run started, seconds since 1970.
    public var at: Double
    public var revision: String?
    public var attempts: [Outcome]

    public init(run: String, at: Double, revision: String? = nil, attempts: [Outcome]) {
        self.run = run
        self.at = at
        self.revision = revision
        self.attempts = attempts
    }

    public var final: Outcome { attempts.last ?? .skipped }
    /// Failed at least once, and the final attempt passed.
    public var flakyInRun: Bool { final.isPass && attempts.dropLast().contains(where: \.isFailure) }
}

/// A test's runs in the window, oldest first, for one configuration.
public struct TestHistory: Hashable, Sendable {
    public var test: String
    public var configuration: String
    public var samples: [RunSample]

    public init(test: String, configuration: String = "", samples: [RunSample]) {
        self.test = test
        self.configuration = configuration
        self.samples = samples
    }
}

/// How many tests a run had and how many failed: tells infrastructure noise apart.
public struct RunHealth: Hashable, Sendable, Codable {
    public var run: String
    public var at: Double
    public var tests: Int
    public var failed: Int

    public init(run: String, at: Double, tests: Int, failed: Int) {
        self.run = run
        self.at = at
        self.tests = tests
        self.failed = failed
    }

    public func isNoise(_ thresholds: FlakyThresholds) -> Bool {
        tests >= thresholds.noiseMinimumTests
            && Double(failed) > thresholds.noiseShare * Double(tests)
    }
}
