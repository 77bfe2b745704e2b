/// One event of the Ledger event stream, version 1 (see DESIGN.md).
///
/// Every producer emits these and every consumer reads them. The envelope (`v`, `type`,
/// `run`) lives in ``LedgerRecord``; the cases here carry each type's own fields.
public enum LedgerEvent: Hashable, Sendable {
    case runStart(RunStart)
    case testStart(TestStart)
    case activityStart(ActivityStart)
    case activityEnd(ActivityEnd)
    case capture(Capture)
    case predicate(Predicate)
    case issue(Issue)
    case testEnd(TestEnd)
    case runEnd(RunEnd)

    /// The `type` string that names the event on the wire.
    public var type: String {
        switch self {
        case .runStart: "run.start"
        case .testStart: "test.start"
        case .activityStart: "activity.start"
        case .activityEnd: "activity.end"
        case .capture: "capture"
        case .predicate: "predicate"
        case .issue: "issue"
        case .testEnd: "test.end"
        case .runEnd: "run.end"
        }
    }
}

extension LedgerEvent {
    /// CI details of a run.
    public struct CI: Codable, Hashable, Sendable {
        public var provider: String?
        public var build: String?
        public var job: String?
        public var url: String?

        public init(provider: String? = nil, build: String? = nil, job: String? = nil, url: String? = nil) {
            self.provider = provider
            self.build = build
            self.job = job
            self.url = url
        }
    }

    /// `run.start`: a run begins.
    public struct RunStart: Codable, Hashable, Sendable {
        public var at: Double
        public var project: String
        public var source: String
        public var revision: String?
        public var branch: String?
        public var ci: CI?
        public var host: String?
        /// The CI re-run number of the job that produced the run.
        public var attempt: Int?
        public var labels: [String: String]?
        /// Destination, OS or device (e.g. `iPhone 15 / iOS 18`); part of a test's identity.
        public var configuration: String?

        public init(
            at: Double, project: String, source: String, revision: String? = nil,
            branch: String? = nil, ci: CI? = nil, host: String? = nil, attempt: Int? = nil,
            labels: [String: String]? = nil, configuration: String? = nil
        ) {
            self.at = at
            self.project = project
            self.source = source
            self.revision = revision
            self.branch = branch
            self.ci = ci
            self.host = host
            self.attempt = attempt
            self.labels = labels
            self.configuration = configuration
        }
    }

    /// `test.start`: one attempt of a test begins.
    public struct TestStart: Codable, Hashable, Sendable {
        public var at: Double
        public var test: String
        public var attempt: Int
        public var suite: String?
        public var name: String?
        public var file: String?
        public var line: Int?
        public var layer: Layer?
        public var tags: [String]?

        public init(
            at: Double, test: String, attempt: Int = 1, suite: String? = nil, name: String? = nil,
            file: String? = nil, line: Int? = nil, layer: Layer? = nil, tags: [String]? = nil
        ) {
            self.at = at
            self.test = test
            self.attempt = attempt
            self.suite = suite
            self.name = name
            self.file = file
            self.line = line
            self.layer = layer
            self.tags = tags
        }
    }

    /// `activity.start`: a named step begins inside a test.
    public struct ActivityStart: Codable, Hashable, Sendable {
        public var at: Double
        public var test: String
        public var attempt: Int
        /// The activity's id, unique in the run.
        public var activity: String
        public var parent: String?
        public var name: String?

        public init(
            at: Double, test: String, attempt: Int = 1, activity: String, parent: String? = nil,
            name: String? = nil
        ) {
            self.at = at
            self.test = test
            self.attempt = attempt
            self.activity = activity
            self.parent = parent
            self.name = name
        }
    }

    /// `activity.end`: a step ends.
    public struct ActivityEnd: Codable, Hashable, Sendable {
        public var at: Double
        public var activity: String
        public var outcome: Outcome?

        public init(at: Double, activity: String, outcome: Outcome? = nil) {
            self.at = at
            self.activity = activity
            self.outcome = outcome
        }
    }

    /// `capture`: what a verifier (a test spy) saw.
    public struct Capture: Codable, Hashable, Sendable {
        public var at: Double
        public var test: String
        public var attempt: Int
        public var verifier: String
        public var activity: String?
        public var fields: JSONValue?

        public init(
            at: Double, test: String, attempt: Int = 1, verifier: String, activity: String? = nil,
            fields: JSONValue? = nil
        ) {
            self.at = at
            self.test = test
            self.attempt = attempt
            self.verifier = verifier
            self.activity = activity
            self.fields = fields
        }
    }

    /// `predicate`: one evaluation of a retry-based (`eventually`) check.
    public struct Predicate: Codable, Hashable, Sendable {
        public var at: Double
        public var test: String
        public var attempt: Int
        public var name: String
        public var expect: PredicateExpectation
        public var held: Bool
        public var attempts: Int
        public var waited: Double
        public var timeout: Double
        public var interval: Double?
        public var activity: String?
        public var file: String?
        public var line: Int?

        public init(
            at: Double, test: String, attempt: Int = 1, name: String, expect: PredicateExpectation,
            held: Bool, attempts: Int, waited: Double, timeout: Double, interval: Double? = nil,
            activity: String? = nil, file: String? = nil, line: Int? = nil
        ) {
            self.at = at
            self.test = test
            self.attempt = attempt
            self.name = name
            self.expect = expect
            self.held = held
            self.attempts = attempts
            self.waited = waited
            self.timeout = timeout
            self.interval = interval
            self.activity = activity
            self.file = file
            self.line = line
        }
    }

    /// What kind of problem an `issue` reports.
    public enum IssueKind: String, Codable, Hashable, Sendable {
        case assertion, error, crash, missing
    }

    /// `issue`: a failure message, with where it happened when known.
    public struct Issue: Codable, Hashable, Sendable {
        public var at: Double
        public var test: String
        public var attempt: Int
        public var message: String
        public var file: String?
        public var line: Int?
        public var kind: IssueKind?

        public init(
            at: Double, test: String, attempt: Int = 1, message: String, file: String? = nil,
            line: Int? = nil, kind: IssueKind? = nil
        ) {
            self.at = at
            self.test = test
            self.attempt = attempt
            self.message = message
            self.file = file
            self.line = line
            self.kind = kind
        }
    }

    /// `test.end`: one attempt of a test ends.
    public struct TestEnd: Codable, Hashable, Sendable {
        public var at: Double
        public var test: String
        public var attempt: Int
        public var outcome: Outcome
        public var duration: Double
        public var message: String?

        public init(
            at: Double, test: String, attempt: Int = 1, outcome: Outcome, duration: Double,
            message: String? = nil
        ) {
            self.at = at
            self.test = test
            self.attempt = attempt
            self.outcome = outcome
            self.duration = duration
            self.message = message
        }
    }

    /// `run.end`: the run is over.
    public struct RunEnd: Codable, Hashable, Sendable {
        public var at: Double
        public var outcome: String?

        public init(at: Double, outcome: String? = nil) {
            self.at = at
            self.outcome = outcome
        }
    }
}
