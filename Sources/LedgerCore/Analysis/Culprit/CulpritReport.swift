/// What `report culprit` says: what separates a test's failing attempts from its passing ones.
///
/// Its JSON is a public contract: keys are only ever added.
public struct CulpritReport: Codable, Hashable, Sendable {
    /// The report's conclusion.
    public enum Verdict: String, Codable, Sendable {
        /// At least one feature separates failing attempts from passing ones beyond chance.
        case suspects
        /// Fewer failing attempts than a verdict needs.
        case tooFewFailures = "too-few-failures"
        /// Enough failing attempts, and nothing compared separates them.
        case noSeparation = "no-separation"
    }

    /// What kind of thing a suspect is.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A step that is slower, missing or only present in failing attempts, before the failure.
        case activity
        /// An `eventually` check that timed out or waited near its timeout.
        case predicate
        /// A value a verifier captured.
        case capture
        /// The test that ran just before, in the same process running one test at a time.
        case precedingTest = "preceding-test"
        /// Another test that started, ended or ran a step while the attempt ran.
        case overlappingTest = "overlapping-test"
        /// Another test that was running — or inside one of its steps, or past one and not yet
        /// ended — while the attempt's failing step ran; ``Suspect/step`` names that step.
        case overlappingStep = "overlapping-step"
        /// Another test that fails in the same runs; the suspect's evidence names its cluster.
        case coFailure = "co-failure"
        /// The machine's load while the attempt ran, or the attempt's wall time against its CPU time.
        case load
        /// The machine the run ran on.
        case host
        /// The run's configuration (destination, OS, device).
        case configuration
        /// First try against retry: only the first try fails.
        case attempt
        /// The attempt as a whole is slower (a timeout).
        case duration
    }

    /// A count of attempts out of those where a feature could be seen.
    public struct Share: Codable, Hashable, Sendable {
        /// The attempts with the feature.
        public var count: Int
        /// The attempts where it could be seen.
        public var of: Int

        /// Creates a share.
        /// - Parameters:
        ///   - count: the attempts with the feature.
        ///   - of: the attempts where it could be seen.
        public init(count: Int, of: Int) {
            (self.count, self.of) = (count, of)
        }

        /// `count / of`; 0 of none.
        public var share: Double { of == 0 ? 0 : Double(count) / Double(of) }
    }

    /// Where the failing attempts fail: the failure itself, which is never its own cause.
    public struct Where: Codable, Hashable, Sendable {
        /// The failure's message (the newest failing attempt's at this place).
        public var message: String?
        /// The file of the failing assertion, when known.
        public var file: String?
        /// Its line, when known.
        public var line: Int?
        /// The path of the step it happened in (`Open the feed › Load the feed`), when it was in one.
        public var activity: String?
        /// How many failing attempts failed here.
        public var attempts: Int
    }

    /// One thing that differs in failing attempts, with its evidence.
    public struct Suspect: Codable, Hashable, Sendable {
        /// What kind of thing it is.
        public var kind: Kind
        /// The step path, check name, `Verifier.field = value`, test id, host or configuration;
        /// `first try` for an attempt, `duration` for the whole attempt, `load average` or
        /// `wall time / CPU time` for the load.
        public var name: String
        /// The evidence in words and figures.
        public var evidence: String
        /// The failing share with it less the passing share with it (0…1).
        public var score: Double
        /// Failing attempts with it; for a host or a configuration, which every attempt of a run
        /// shares, runs with a failing attempt.
        public var failing: Share
        /// Passing attempts with it; for a host or a configuration, runs with a passing attempt.
        public var passing: Share
        /// The chance of so lopsided a split by chance, corrected for the number of features compared.
        public var p: Double
        /// For a measure, the seconds (or for a check, the share of its timeout) from which an
        /// attempt counts as having it.
        public var threshold: Double?
        /// For a check: its timeout, in seconds (the longest seen).
        public var timeout: Double?
        /// For a check: the timeout it would need, p99 of the passing waits × 1.5, in seconds.
        public var suggestedTimeout: Double?
        /// Of the attempts with it, the share that failed.
        public var precision: Double
        /// Of the failing attempts where it could be seen, the share with it.
        public var recall: Double
        /// For another test's step (`overlapping-step`): the step's path in that test.
        public var step: String? = nil
    }

    /// The verdict and the likeliest suspect, for a column of another report (`report flaky`).
    public struct Brief: Codable, Hashable, Sendable {
        /// The conclusion.
        public var verdict: Verdict
        /// Failing attempts compared.
        public var failingAttempts: Int
        /// Passing attempts compared.
        public var passingAttempts: Int
        /// The likeliest suspect; `nil` unless the verdict is `suspects`.
        public var suspect: Suspect?
    }

    /// The test's stable id.
    public var test: String
    /// The configuration compared; `*` when every configuration's attempts were.
    public var configuration: String
    /// Failing attempts compared: failed, erred, crashed or never ended.
    public var failingAttempts: Int
    /// Passing attempts compared.
    public var passingAttempts: Int
    /// The conclusion.
    public var verdict: Verdict
    /// Where the failing attempts fail most often; `nil` without failing attempts.
    public var `where`: Where?
    /// The suspects, the likeliest first; empty unless the verdict is `suspects`.
    public var suspects: [Suspect]
    /// The failing attempts a verdict needs.
    public var minimumFailures: Int
    /// What was compared, in words (`14 steps`, `3 checks`, `preceding tests`…).
    public var compared: [String]
    /// Runs read.
    public var runs: Int
    /// When it fails only beside other tests — every failing attempt ran beside some, and every
    /// retry that ran alone passed — the tests that ran beside its failing attempts, those beside
    /// the most first; `nil` otherwise. `verify` runs it beside them.
    public var failsOnlyBeside: [String]? = nil

    /// The verdict and the likeliest suspect.
    public var brief: Brief {
        Brief(
            verdict: verdict, failingAttempts: failingAttempts, passingAttempts: passingAttempts,
            suspect: suspects.first)
    }
}
