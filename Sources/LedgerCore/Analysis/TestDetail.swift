/// One test's result in one run, with everything recorded inside it: `testledger show`.
public struct TestDetail: Codable, Hashable, Sendable {
    public struct IssueDetail: Codable, Hashable, Sendable {
        public var message: String
        public var file: String?
        public var line: Int?
        public var kind: String?

        public init(message: String, file: String?, line: Int?, kind: String?) {
            self.message = message
            self.file = file
            self.line = line
            self.kind = kind
        }
    }

    /// A step and the steps inside it.
    public struct ActivityDetail: Codable, Hashable, Sendable {
        public var name: String
        public var duration: Double?
        public var outcome: String?
        public var children: [ActivityDetail]

        public init(name: String, duration: Double?, outcome: String?, children: [ActivityDetail]) {
            self.name = name
            self.duration = duration
            self.outcome = outcome
            self.children = children
        }
    }

    public struct CaptureDetail: Codable, Hashable, Sendable {
        public var verifier: String
        public var fields: JSONValue?
        /// The activity it was captured in.
        public var activity: String?

        public init(verifier: String, fields: JSONValue?, activity: String?) {
            self.verifier = verifier
            self.fields = fields
            self.activity = activity
        }
    }

    public struct PredicateDetail: Codable, Hashable, Sendable {
        public var name: String
        public var expect: PredicateExpectation
        public var held: Bool
        public var attempts: Int
        public var waited: Double
        public var timeout: Double
        public var interval: Double?
        public var file: String?
        public var line: Int?
        public var activity: String?

        public init(
            name: String, expect: PredicateExpectation, held: Bool, attempts: Int, waited: Double, timeout: Double,
            interval: Double?, file: String?, line: Int?, activity: String?
        ) {
            self.name = name
            self.expect = expect
            self.held = held
            self.attempts = attempts
            self.waited = waited
            self.timeout = timeout
            self.interval = interval
            self.file = file
            self.line = line
            self.activity = activity
        }
    }

    public var test: String
    public var run: String
    public var startedAt: String
    /// The final attempt's outcome; `running` for an attempt that has not ended.
    public var outcome: String
    public var duration: Double?
    /// Outcomes of every attempt in the run, in order.
    public var attempts: [String]
    public var file: String?
    public var line: Int?
    public var layer: Layer?
    public var issues: [IssueDetail]
    public var activities: [ActivityDetail]
    public var captures: [CaptureDetail]
    public var predicates: [PredicateDetail]

    public init(
        test: String, run: String, startedAt: String, outcome: String, duration: Double?, attempts: [String],
        file: String?, line: Int?, layer: Layer?, issues: [IssueDetail], activities: [ActivityDetail],
        captures: [CaptureDetail], predicates: [PredicateDetail]
    ) {
        self.test = test
        self.run = run
        self.startedAt = startedAt
        self.outcome = outcome
        self.duration = duration
        self.attempts = attempts
        self.file = file
        self.line = line
        self.layer = layer
        self.issues = issues
        self.activities = activities
        self.captures = captures
        self.predicates = predicates
    }
}
