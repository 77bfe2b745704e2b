/// One attempt of a test with what happened inside it: what the culprit report compares.
///
/// Steps, checks and captures keep the times they were recorded at, so the report can tell what
/// happened before the attempt failed from what followed the failure.
public struct AttemptEvidence: Hashable, Sendable {
    /// A step (activity) of the attempt.
    public struct Step: Hashable, Sendable {
        /// The names of the step and the steps around it, outermost first.
        public var path: [String]
        /// When it started, in seconds since 1970.
        public var startedAt: Double
        /// When it ended; `nil` when it never did.
        public var endedAt: Double?
        /// How it ended, when it said.
        public var outcome: Outcome?

        /// Creates a step from its parts.
        /// - Parameters:
        ///   - path: the names from the outermost step to this one.
        ///   - startedAt: when it started, in seconds since 1970.
        ///   - endedAt: when it ended; `nil` when it never did.
        ///   - outcome: how it ended, when it said.
        public init(path: [String], startedAt: Double, endedAt: Double?, outcome: Outcome?) {
            (self.path, self.startedAt, self.endedAt, self.outcome) = (path, startedAt, endedAt, outcome)
        }
    }

    /// One evaluation of a retry-based (`eventually`) check.
    public struct Check: Hashable, Sendable {
        /// The check's name.
        public var name: String
        /// What it waited for.
        public var expect: PredicateExpectation
        /// Whether what it waited for came about before its timeout.
        public var held: Bool
        /// How long it waited, in seconds.
        public var waited: Double
        /// How long it was allowed to wait, in seconds.
        public var timeout: Double
        /// When it finished, in seconds since 1970.
        public var at: Double
        /// The path of the step it ran in; empty when it ran in none.
        public var stepPath: [String]

        /// Creates an evaluation from its parts.
        /// - Parameters:
        ///   - name: the check's name.
        ///   - expect: what it waited for.
        ///   - held: whether that came about in time.
        ///   - waited: how long it waited, in seconds.
        ///   - timeout: how long it could wait, in seconds.
        ///   - at: when it finished, in seconds since 1970.
        ///   - stepPath: the path of the step it ran in; empty for none.
        public init(
            name: String, expect: PredicateExpectation, held: Bool, waited: Double, timeout: Double, at: Double,
            stepPath: [String]
        ) {
            (self.name, self.expect, self.held, self.waited, self.timeout) = (name, expect, held, waited, timeout)
            (self.at, self.stepPath) = (at, stepPath)
        }
    }

    /// What a verifier captured.
    public struct Capture: Hashable, Sendable {
        /// The verifier, e.g. `AlertVerifier`.
        public var verifier: String
        /// The fields it captured, as captured.
        public var fields: JSONValue?
        /// When it captured them, in seconds since 1970.
        public var at: Double
        /// The path of the step it captured in; empty when none.
        public var stepPath: [String]

        /// Creates a capture from its parts.
        /// - Parameters:
        ///   - verifier: the verifier's name.
        ///   - fields: the fields captured.
        ///   - at: when, in seconds since 1970.
        ///   - stepPath: the path of the step it captured in; empty for none.
        public init(verifier: String, fields: JSONValue?, at: Double, stepPath: [String]) {
            (self.verifier, self.fields, self.at, self.stepPath) = (verifier, fields, at, stepPath)
        }
    }

    /// A failure or other issue recorded in the attempt.
    public struct Issue: Hashable, Sendable {
        /// When it was recorded, in seconds since 1970.
        public var at: Double
        /// What it says.
        public var message: String
        /// The file it points at, when known.
        public var file: String?
        /// The line in ``file``, when known.
        public var line: Int?

        /// Creates an issue from its parts.
        /// - Parameters:
        ///   - at: when it was recorded, in seconds since 1970.
        ///   - message: what it says.
        ///   - file: the file it points at, when known.
        ///   - line: the line, when known.
        public init(at: Double, message: String, file: String?, line: Int?) {
            (self.at, self.message, self.file, self.line) = (at, message, file, line)
        }
    }

    /// Another test of the run that did something while the attempt ran.
    public struct Neighbour: Hashable, Sendable {
        /// What the other test did.
        /// What the other test did, the likeliest to disturb the attempt first.
        public enum Event: Int, Hashable, Sendable, Comparable {
            /// It ended (and cleaned up after itself).
            case ended
            /// It started (and set itself up).
            case started
            /// One of its steps started or ended.
            case stepped

            public static func < (lhs: Event, rhs: Event) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        /// The other test's stable id.
        public var test: String
        /// What it did.
        public var event: Event
        /// When, in seconds since 1970.
        public var at: Double

        /// Creates a neighbour's event.
        /// - Parameters:
        ///   - test: the other test's stable id.
        ///   - event: what it did.
        ///   - at: when, in seconds since 1970.
        public init(test: String, event: Event, at: Double) {
            (self.test, self.event, self.at) = (test, event, at)
        }
    }

    /// Another test's attempt that ran while this one did, with its steps: what the culprit
    /// compares with the moment this attempt's failing step ran.
    public struct Company: Hashable, Sendable {
        /// The other test's stable id.
        public var test: String
        /// When it started, in seconds since 1970.
        public var startedAt: Double
        /// When it ended; `nil` when it never did.
        public var endedAt: Double?
        /// Its steps, in the order they started.
        public var steps: [Step]

        /// Creates another test's attempt from its parts.
        /// - Parameters:
        ///   - test: the other test's stable id.
        ///   - startedAt: when it started, in seconds since 1970.
        ///   - endedAt: when it ended; `nil` when it never did.
        ///   - steps: its steps in start order.
        public init(test: String, startedAt: Double, endedAt: Double?, steps: [Step]) {
            (self.test, self.startedAt, self.endedAt, self.steps) = (test, startedAt, endedAt, steps)
        }
    }

    /// The run's id.
    public var run: String
    /// The attempt's number in the run, 1 for the first try.
    public var attempt: Int
    /// How it ended; `nil` when it never did (it counts as failing).
    public var outcome: Outcome?
    /// When it started, in seconds since 1970.
    public var startedAt: Double
    /// How long it took, in seconds; `nil` when it never ended.
    public var duration: Double?
    /// The run's configuration; empty when none was named.
    public var configuration: String
    /// The machine the run ran on, when known.
    public var host: String?
    /// The test that ran just before this attempt in its process, when one did and the process ran
    /// one test at a time: in a process that runs tests side by side, "before" means nothing.
    public var preceding: String?
    /// The process it ran in (its id), when known.
    public var process: Int?
    /// The machine's load average while it ran (the highest sampled), when known.
    public var load: Double?
    /// The CPU seconds its process used while it ran, when known.
    public var cpu: Double?
    /// What other tests of the run did while it ran (started, ended, a step); `nil` when unknown.
    public var beside: [Neighbour]?
    /// The other tests' attempts that ran while it did, with their steps; empty when it ran
    /// alone, `nil` when unknown.
    public var company: [Company]?
    /// Its run of the window's failures: the other tests that failed in it; `nil` when unknown.
    public var failedInRun: WindowFailures.Run?
    /// The other tests that failed in its run; `nil` when unknown.
    public var failedBeside: Set<String>? {
        get { failedInRun?.tests }
        set { failedInRun = newValue.map(WindowFailures.Run.init(failed:)) }
    }
    /// Its steps, in the order they started.
    public var steps: [Step]
    /// Its retry-based checks, in the order they finished.
    public var checks: [Check]
    /// What verifiers captured in it, in order.
    public var captures: [Capture]
    /// Its issues, in the order they were recorded; only a failing attempt's are compared.
    public var issues: [Issue]
    /// Its own message (a runner's failure text), when it has one.
    public var message: String?

    /// Creates an attempt from its parts.
    /// - Parameters:
    ///   - run: the run's id.
    ///   - attempt: its number in the run.
    ///   - outcome: how it ended; `nil` when it never did.
    ///   - startedAt: when it started, in seconds since 1970.
    ///   - duration: how long it took; `nil` when it never ended.
    ///   - configuration: the run's configuration.
    ///   - host: the run's machine, when known.
    ///   - preceding: the test that ran just before it, when one did.
    ///   - steps: its steps in start order.
    ///   - checks: its retry-based checks in order.
    ///   - captures: its captures in order.
    ///   - issues: its issues in order.
    ///   - message: its own message, when it has one.
    public init(
        run: String, attempt: Int, outcome: Outcome?, startedAt: Double, duration: Double?, configuration: String = "",
        host: String? = nil, preceding: String? = nil, steps: [Step] = [], checks: [Check] = [],
        captures: [Capture] = [], issues: [Issue] = [], message: String? = nil
    ) {
        (self.run, self.attempt, self.outcome, self.startedAt, self.duration) = (
            run, attempt, outcome, startedAt, duration
        )
        (self.configuration, self.host, self.preceding) = (configuration, host, preceding)
        (self.steps, self.checks, self.captures, self.issues, self.message) = (
            steps, checks, captures, issues, message
        )
    }

    /// Whether it is a retry that ran with no other test beside it, as a runner's rerun of its
    /// failures does: it says nothing of which neighbour matters, and is not compared for one.
    public var isRetryAlone: Bool { attempt > 1 && company?.isEmpty == true }

    /// Whether the attempt counts as failing: failed, erred, crashed or never ended.
    public var isFailing: Bool { outcome?.isFailure ?? true }
    /// Whether the attempt counts as passing: passed or failed as expected.
    public var isPassing: Bool { outcome?.isPass ?? false }
}
