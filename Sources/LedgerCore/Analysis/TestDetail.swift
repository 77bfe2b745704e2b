/// One test's result in one run, with everything recorded inside it: `testledger show`.
///
/// Its failures, captures and predicates are the stream's own events, as they were stored.
public struct TestDetail: Codable, Hashable, Sendable {
    /// A step and the steps inside it.
    public struct ActivityDetail: Codable, Hashable, Sendable {
        /// The activity's id in the run, which captures and predicates name.
        public var id: String
        public var name: String
        /// Seconds from its start to its end; `nil` when it never ended.
        public var duration: Double?
        public var outcome: Outcome?
        public var children: [ActivityDetail]

        public init(id: String, name: String, duration: Double?, outcome: Outcome?, children: [ActivityDetail]) {
            self.id = id
            self.name = name
            self.duration = duration
            self.outcome = outcome
            self.children = children
        }
    }

    /// The stable test id.
    public var test: String
    /// The run's id.
    public var run: String
    /// When the final attempt started, ISO 8601.
    public var startedAt: String
    /// Where the final attempt stands.
    public var outcome: AttemptState
    public var duration: Double?
    /// Every attempt in the run, in order.
    public var attempts: [AttemptState]
    public var file: String?
    public var line: Int?
    public var layer: Layer?
    public var issues: [LedgerEvent.Issue]
    public var activities: [ActivityDetail]
    public var captures: [LedgerEvent.Capture]
    public var predicates: [LedgerEvent.Predicate]

    public init(
        test: String, run: String, startedAt: String, outcome: AttemptState, duration: Double?,
        attempts: [AttemptState], file: String?, line: Int?, layer: Layer?, issues: [LedgerEvent.Issue],
        activities: [ActivityDetail], captures: [LedgerEvent.Capture], predicates: [LedgerEvent.Predicate]
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

    /// The name of the activity whose id is `id`, found anywhere in the tree.
    public func activityName(_ id: String?) -> String? {
        guard let id else { return nil }
        var pending = activities
        while let activity = pending.popLast() {
            if activity.id == id { return activity.name }
            pending += activity.children
        }
        return nil
    }
}
