/// One test's attempt in one run (its final one unless another is asked for), with everything
/// recorded inside it: `testledger show`.
///
/// Its failures, captures and predicates are the stream's own events, as they were stored.
public struct TestDetail: Codable, Hashable, Sendable {
    /// A step and the steps inside it.
    public struct ActivityDetail: Codable, Hashable, Sendable {
        /// The activity's id in the run, which captures and predicates name.
        public var id: String
        /// The step's name; empty when it was given none.
        public var name: String
        /// Seconds from its start to its end; `nil` when it never ended.
        public var duration: Double?
        /// How the step ended, `passed` or `failed`; `nil` when it never ended or its end did not say.
        public var outcome: Outcome?
        /// The steps nested directly inside it, in the order they started.
        public var children: [ActivityDetail]
        /// When it started, in seconds since 1970.
        public var at: Double? = nil

        /// Creates a step from its parts.
        /// - Parameters:
        ///   - id: the activity's id in the run.
        ///   - name: the step's name.
        ///   - duration: seconds from its start to its end; `nil` when it never ended.
        ///   - outcome: how it ended; `nil` when it never ended or did not say.
        ///   - children: the steps nested directly inside it.
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
    /// When the attempt started, ISO 8601.
    public var startedAt: String
    /// Where the attempt stands.
    public var outcome: AttemptState
    /// How long the attempt took, in seconds; `nil` while it has no end.
    public var duration: Double?
    /// Every attempt in the run, in order.
    public var attempts: [AttemptState]
    /// The file that declares the test; `nil` when no producer named it.
    public var file: String?
    /// The line in ``file`` that declares the test; `nil` when no producer named it.
    public var line: Int?
    /// The test's layer of the pyramid, declared or classified; `nil` when it has none.
    public var layer: Layer?
    /// The attempt's failures and other issues, in the order they were recorded.
    public var issues: [LedgerEvent.Issue]
    /// The attempt's outermost steps, in the order they started, each with the steps inside it.
    public var activities: [ActivityDetail]
    /// What verifiers captured during the attempt, in the order they captured it.
    public var captures: [LedgerEvent.Capture]
    /// The attempt's retry-based checks, in the order they finished.
    public var predicates: [LedgerEvent.Predicate]
    /// Files the attempt attached (screenshots, logs), in the order they were attached.
    public var attachments: [LedgerEvent.Attachment] = []
    /// Which attempt this detail is of (1 is the first): the final one unless another was asked for.
    public var attempt: Int? = nil
    /// Who owns the test, when the project names owners.
    public var owners: [String]? = nil
    /// Why the test fails, over its project's recent runs (`testledger show`), when asked for.
    public var culprit: CulpritReport? = nil

    /// Creates a detail from its parts.
    /// - Parameters:
    ///   - test: the stable test id.
    ///   - run: the run's id.
    ///   - startedAt: when the attempt started, ISO 8601.
    ///   - outcome: where the attempt stands.
    ///   - duration: how long the attempt took, in seconds; `nil` while it has no end.
    ///   - attempts: every attempt in the run, in order.
    ///   - file: the file that declares the test, when known.
    ///   - line: the line that declares the test, when known.
    ///   - layer: the test's layer, when it has one.
    ///   - issues: the attempt's issues, in order.
    ///   - activities: the attempt's outermost steps.
    ///   - captures: the attempt's captures, in order.
    ///   - predicates: the attempt's retry-based checks, in order.
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
    /// - Parameter id: an activity id, as a capture or predicate names it; `nil` for none.
    /// - Returns: the activity's name; `nil` when `id` is `nil` or no activity of the attempt has it.
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
