/// One run of one test, as the judgement needs it: the final outcome and whether any attempt
/// passed or failed.
public struct RunSample: Hashable, Sendable {
    /// The run's id.
    public var run: String
    /// When the run started, seconds since 1970.
    public var at: Double
    /// The revision the run tested; `nil` when unknown.
    public var revision: String?
    /// The outcome of the last attempt; ``Outcome/skipped`` when there were none.
    public var final: Outcome
    /// Whether any attempt passed.
    public var anyAttemptPassed: Bool
    /// Whether any attempt failed.
    public var anyAttemptFailed: Bool

    /// Creates a sample from the test's attempts in the run.
    ///
    /// - Parameters:
    ///   - run: the run's id.
    ///   - at: when the run started, in seconds since 1970.
    ///   - revision: the revision the run tested, when known.
    ///   - attempts: the test's attempts in the run, in order.
    public init(run: String, at: Double, revision: String? = nil, attempts: [Outcome]) {
        self.init(
            run: run, at: at, revision: revision, final: attempts.last ?? .skipped,
            anyAttemptPassed: attempts.contains(where: \.isPass),
            anyAttemptFailed: attempts.contains(where: \.isFailure))
    }

    /// Creates a sample from what its attempts came to.
    ///
    /// - Parameters:
    ///   - run: the run's id.
    ///   - at: when the run started, in seconds since 1970.
    ///   - revision: the revision the run tested, when known.
    ///   - final: the last attempt's outcome.
    ///   - anyAttemptPassed: whether any attempt passed.
    ///   - anyAttemptFailed: whether any attempt failed.
    public init(
        run: String, at: Double, revision: String? = nil, final: Outcome, anyAttemptPassed: Bool,
        anyAttemptFailed: Bool
    ) {
        (self.run, self.at, self.revision, self.final) = (run, at, revision, final)
        (self.anyAttemptPassed, self.anyAttemptFailed) = (anyAttemptPassed, anyAttemptFailed)
    }

    /// Failed at least once, and the final attempt passed: passed on retry in this run.
    public var flakyInRun: Bool { final.isPass && anyAttemptFailed }
}

/// A test's runs in the window, oldest first, for one configuration.
public struct TestHistory: Hashable, Sendable {
    /// The test's stable id.
    public var test: String
    /// The configuration (destination, OS or device) of the runs; empty when none was named.
    public var configuration: String
    /// The test's runs, oldest first.
    public var samples: [RunSample]

    /// Creates a history.
    ///
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - configuration: the configuration of the runs; empty when none was named.
    ///   - samples: the test's runs, oldest first.
    public init(test: String, configuration: String = "", samples: [RunSample]) {
        self.test = test
        self.configuration = configuration
        self.samples = samples
    }
}

/// How many tests a run had and how many failed: tells infrastructure noise apart.
public struct RunHealth: Hashable, Sendable, Codable {
    /// The run's id.
    public var run: String
    /// When the run started, in seconds since 1970.
    public var at: Double
    /// Tests with results in the run.
    public var tests: Int
    /// Tests whose final outcome in the run was a failure.
    public var failed: Int

    /// Creates a run's health.
    ///
    /// - Parameters:
    ///   - run: the run's id.
    ///   - at: when the run started, in seconds since 1970.
    ///   - tests: tests with results in the run.
    ///   - failed: tests whose final outcome was a failure.
    public init(run: String, at: Double, tests: Int, failed: Int) {
        (self.run, self.at, self.tests, self.failed) = (run, at, tests, failed)
    }

    /// Whether the run is infrastructure noise: it has at least ``FlakyThresholds/noiseMinimumTests``
    /// tests, and more than ``FlakyThresholds/noiseShare`` of them failed.
    ///
    /// - Parameter thresholds: the thresholds that define noise.
    /// - Returns: `true` when the run's failures say more about the machine than about the tests.
    public func isNoise(_ thresholds: FlakyThresholds) -> Bool {
        tests >= thresholds.noiseMinimumTests
            && Double(failed) > thresholds.noiseShare * Double(tests)
    }
}
