import Foundation

/// What `report flaky` says: flaky and broken tests, judged predicates, the noise left out.
public struct FlakyReport: Codable, Hashable, Sendable {
    /// A test judged flaky, with the evidence behind the verdict.
    ///
    /// Noise runs and runs whose final outcome was a skip are left out of every figure.
    public struct FlakyTest: Codable, Hashable, Sendable {
        /// The test's stable id.
        public var test: String
        /// The configuration (destination, OS or device) the history is for; empty when none was named.
        public var configuration: String
        /// Recency-weighted instability (0…1): flips and retried passes, newer runs weigh more.
        public var score: Double
        /// Runs judged: the window's runs that are not noise and whose final outcome for it was not a skip.
        public var runs: Int
        /// Runs whose final outcome was a failure (failed, error or crashed).
        public var failures: Int
        /// Runs in which it failed and then passed on retry.
        public var retriedPasses: Int
        /// Changes between consecutive runs' final pass/fail, divided by `runs - 1` (0…1); 0 for one run.
        public var flipRate: Double
        /// Revisions on which it both passed and failed, in any attempt; a run whose revision is
        /// unknown counts as a revision of its own.
        public var revisionsWithBoth: Int
        /// When it last flaked (ISO 8601).
        public var lastFlake: String?
        /// Estimated chance that a run of it fails: `(failures + 1) / (runs + 2)`, with
        /// ``uncertainty`` as its standard error.
        public var failureProbability: Double
        /// The standard error of ``failureProbability``.
        public var uncertainty: Double
        /// The newest runs in a row that passed with no failed attempt.
        public var quietRuns: Int
        /// The share of runs before ``quietRuns`` that failed or passed only on retry (0…1).
        public var earlierRate: Double
        /// The probability of ``quietRuns`` quiet runs by chance at ``earlierRate``: `(1 − p)^k`.
        public var quietChance: Double
        /// The quiet runs it takes to recover at ``earlierRate`` (see ``QuietStretch``).
        public var quietRunsNeeded: Int?
        /// The run outcomes oldest first, one letter each: P passed, F failed, R passed on retry.
        public var strip: String
        /// How it is quarantined now, when it is.
        public var quarantined: QuarantineMode? = nil
        /// Who owns it, when the project names owners.
        public var owners: [String]? = nil
        /// Why it fails: what separates its failing attempts from its passing ones over the window,
        /// when the report was asked for it.
        public var culprit: CulpritReport.Brief? = nil
        /// Its fix `verify` recorded, while it is followed: pending, landed or regressed.
        public var fix: RecordedFix.Brief? = nil
    }

    /// A test that flaked or was broken, and whose newest quiet stretch is evidence that it no
    /// longer does (see ``QuietStretch``).
    public struct RecoveredTest: Codable, Hashable, Sendable {
        /// The test's stable id.
        public var test: String
        /// The configuration (destination, OS or device) the history is for; empty when none was named.
        public var configuration: String
        /// Runs judged: the window's runs that are not noise and whose final outcome for it was not a skip.
        public var runs: Int
        /// The newest runs in a row that passed with no failed attempt.
        public var quietRuns: Int
        /// The share of runs before ``quietRuns`` that failed or passed only on retry (0…1).
        public var earlierRate: Double
        /// The probability of ``quietRuns`` quiet runs by chance at ``earlierRate``: `(1 − p)^k`.
        public var quietChance: Double
        /// When it last flaked or failed (ISO 8601).
        public var lastFlake: String?
        /// The run outcomes oldest first, one letter each: P passed, F failed, R passed on retry.
        public var strip: String
        /// How it is quarantined now, when it is.
        public var quarantined: QuarantineMode? = nil
        /// Who owns it, when the project names owners.
        public var owners: [String]? = nil
    }

    /// A test judged broken: it fails most of the time, or has failed several runs in a row.
    ///
    /// Broken tests are listed apart and never as flaky.
    public struct BrokenTest: Codable, Hashable, Sendable {
        /// The test's stable id.
        public var test: String
        /// The configuration (destination, OS or device) the history is for; empty when none was named.
        public var configuration: String
        /// Runs judged: the window's runs that are not noise and whose final outcome for it was not a skip.
        public var runs: Int
        /// Runs whose final outcome was a failure (failed, error or crashed).
        public var failures: Int
        /// ``failures`` divided by ``runs`` (0…1).
        public var failureRate: Double
        /// The newest runs in a row that failed with no passing attempt.
        public var failingStreak: Int
        /// The run outcomes oldest first, one letter each: P passed, F failed, R passed on retry.
        public var strip: String
        /// How it is quarantined now, when it is.
        public var quarantined: QuarantineMode? = nil
        /// Who owns it, when the project names owners.
        public var owners: [String]? = nil
        /// Its fix `verify` recorded, while it is followed: pending, landed or regressed.
        public var fix: RecordedFix.Brief? = nil
    }

    /// A run left out as infrastructure noise: too many of its tests failed for the failures to say
    /// anything about the tests.
    public struct NoiseRun: Codable, Hashable, Sendable {
        /// The run's id.
        public var run: String
        /// When the run started (ISO 8601).
        public var startedAt: String
        /// Tests with results in the run.
        public var tests: Int
        /// Tests whose final outcome in the run was a failure.
        public var failed: Int
    }

    /// Runs in the window, noise runs included.
    public var runs: Int
    /// Flaky tests; ``FlakinessAnalysis`` ranks them highest ``FlakyTest/score`` first, then most
    /// failures, then by test id and configuration.
    public var flaky: [FlakyTest]
    /// Broken tests; ``FlakinessAnalysis`` ranks them highest ``BrokenTest/failureRate`` first, then by
    /// test id.
    public var broken: [BrokenTest]
    /// Tests that flaked or were broken but have since recovered, by test id and configuration.
    ///
    /// In JSON, `recovered` keeps its first meaning, the tests' ids (sorted, each once), and
    /// `recoveredTests` holds these tests with their evidence.
    public var recovered: [RecoveredTest]
    /// Judged predicate call sites, in the order ``PredicateAnalysis/findings(_:thresholds:)`` gives.
    public var predicates: [PredicateFinding]
    /// The runs left out of the judgement as infrastructure noise.
    public var noiseRuns: [NoiseRun]

    /// Creates a report from its parts, as given.
    ///
    /// - Parameters:
    ///   - runs: the runs in the window, noise runs included.
    ///   - flaky: the flaky tests.
    ///   - broken: the broken tests.
    ///   - recovered: the recovered tests.
    ///   - predicates: the judged predicate call sites.
    ///   - noiseRuns: the runs left out as infrastructure noise.
    public init(
        runs: Int, flaky: [FlakyTest], broken: [BrokenTest], recovered: [RecoveredTest],
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

extension FlakyReport {
    /// The report with each test marked as it is quarantined at the report's time.
    ///
    /// - Parameter quarantine: the entries in force, of the report's project.
    /// - Returns: a copy whose flaky, broken and recovered tests carry the mode of the entry that
    ///   applies to their configuration; the report as it is when no entry is in force.
    public func marking(_ quarantine: [QuarantinedTest]) -> FlakyReport {
        guard !quarantine.isEmpty else { return self }
        let byTest = Dictionary(grouping: quarantine, by: \.test)
        func mode(_ test: String, _ configuration: String) -> QuarantineMode? {
            byTest[test]?.first { $0.applies(to: configuration) }?.mode
        }
        var marked = self
        for index in marked.flaky.indices {
            marked.flaky[index].quarantined = mode(marked.flaky[index].test, marked.flaky[index].configuration)
        }
        for index in marked.broken.indices {
            marked.broken[index].quarantined = mode(marked.broken[index].test, marked.broken[index].configuration)
        }
        for index in marked.recovered.indices {
            marked.recovered[index].quarantined = mode(
                marked.recovered[index].test, marked.recovered[index].configuration)
        }
        return marked
    }
}

extension FlakyReport {
    private enum CodingKeys: String, CodingKey {
        case runs, flaky, broken, recovered, recoveredTests, predicates, noiseRuns
    }

    /// Reads a report as ``encode(to:)`` writes it; the recovered tests come from
    /// `recoveredTests`, and none from a report that has only their ids.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when a key is missing or of another type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            runs: try container.decode(Int.self, forKey: .runs),
            flaky: try container.decode([FlakyTest].self, forKey: .flaky),
            broken: try container.decode([BrokenTest].self, forKey: .broken),
            recovered: try container.decodeIfPresent([RecoveredTest].self, forKey: .recoveredTests) ?? [],
            predicates: try container.decode([PredicateFinding].self, forKey: .predicates),
            noiseRuns: try container.decode([NoiseRun].self, forKey: .noiseRuns))
    }

    /// Writes the report as the JSON contract has it: `recovered` the recovered tests' ids, sorted
    /// and each once, and `recoveredTests` the tests themselves.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runs, forKey: .runs)
        try container.encode(flaky, forKey: .flaky)
        try container.encode(broken, forKey: .broken)
        try container.encode(Set(recovered.map(\.test)).sorted(), forKey: .recovered)
        try container.encode(recovered, forKey: .recoveredTests)
        try container.encode(predicates, forKey: .predicates)
        try container.encode(noiseRuns, forKey: .noiseRuns)
    }
}
