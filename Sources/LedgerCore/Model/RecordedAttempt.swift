/// One attempt of a test in a run, as the store keeps it: what an export of the run writes.
public struct RecordedAttempt: Hashable, Sendable {
    /// The test's stable id.
    public var test: String
    public var suite: String?
    public var name: String?
    /// Where the test is declared.
    public var file: String?
    public var line: Int?
    /// 1 for the first attempt.
    public var attempt: Int
    /// Seconds since 1970.
    public var startedAt: Double
    /// Seconds; `nil` for an attempt that never ended.
    public var duration: Double?
    /// `nil` for an attempt that never ended.
    public var outcome: Outcome?
    /// The first issue's message.
    public var message: String?
    /// The attempt's own message: a backtrace, a skip's reason.
    public var detail: String?
    /// Its steps, in the order they started, where they were read (a timeline's attempts).
    public var steps: [AttemptEvidence.Step] = []

    public init(
        test: String, suite: String? = nil, name: String? = nil, file: String? = nil, line: Int? = nil,
        attempt: Int, startedAt: Double, duration: Double?, outcome: Outcome?, message: String? = nil,
        detail: String? = nil
    ) {
        (self.test, self.suite, self.name, self.file, self.line) = (test, suite, name, file, line)
        (self.attempt, self.startedAt, self.duration, self.outcome) = (attempt, startedAt, duration, outcome)
        (self.message, self.detail) = (message, detail)
    }
}
