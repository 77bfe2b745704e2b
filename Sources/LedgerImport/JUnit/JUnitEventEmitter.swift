import LedgerCore

/// Turns worked-out attempts into events: numbers attempts per test id across the document,
/// gives each attempt its start and end, and keeps what `run.end` needs.
struct JUnitEventEmitter {
    /// What is known of one test id so far.
    private struct TestState {
        var attempts = 0
        var failing = false
    }

    let runID: String
    /// Per test id: a test id seen again (a trainer retry, or the same classname and name
    /// twice) continues the numbering.
    private var tests: [String: TestState] = [:]
    /// How many test ids have a failing latest attempt, for `run.end`'s outcome.
    private var failingCount = 0
    /// When the last attempt so far ended; `nil` before the first.
    private(set) var latestEnd: Double?

    /// - Parameters:
    ///   - runID: the id of the run the events belong to.
    ///   - expectedTests: how many test ids to make room for at once, so that a large report does
    ///     not grow the table step by step, hashing every id again each time.
    init(runID: String, expectedTests: Int = 0) {
        self.runID = runID
        tests.reserveCapacity(expectedTests)
    }

    /// `run.end` at the end of the last attempt, or at `start` when that is later or there
    /// was none; `failed` when some test's last attempt failed.
    func end(notBefore start: Double) -> LedgerEvent {
        .runEnd(
            LedgerEvent.RunEnd(
                at: max(start, latestEnd ?? start), outcome: failingCount == 0 ? .passed : .failed))
    }

    /// Sends the events of `attempts` of the test described by `test`, run one after the
    /// other from `start`, to `sink`.
    /// - Returns: when the last attempt ended.
    /// - Throws: whatever `sink` throws.
    mutating func emit(
        _ test: LedgerEvent.TestStart, attempts: [JUnitAttempt], startingAt start: Double,
        into sink: inout any EventSink
    ) throws -> Double {
        var clock = start
        for attempt in attempts {
            clock = try emit(test, attempt: attempt, startingAt: clock, into: &sink)
        }
        return clock
    }

    /// Sends the events of one attempt of the test described by `test`, from `start`.
    /// - Returns: when the attempt ended.
    /// - Throws: whatever `sink` throws.
    mutating func emit(
        _ test: LedgerEvent.TestStart, attempt: JUnitAttempt, startingAt start: Double,
        into sink: inout any EventSink
    ) throws -> Double {
        let number = nextAttempt(of: test.test, failing: attempt.outcome.isFailure)
        var begin = test
        begin.at = start
        begin.attempt = number
        try sink.consume(LedgerRecord(run: runID, event: .testStart(begin)))
        for issue in attempt.issues {
            let event = LedgerEvent.Issue(
                at: start, test: test.test, attempt: number, message: issue.message,
                file: issue.file, line: issue.line, kind: issue.kind)
            try sink.consume(LedgerRecord(run: runID, event: .issue(event)))
        }
        let end = start + attempt.duration
        let event = LedgerEvent.TestEnd(
            at: end, test: test.test, attempt: number, outcome: attempt.outcome,
            duration: attempt.duration, message: attempt.message)
        try sink.consume(LedgerRecord(run: runID, event: .testEnd(event)))
        latestEnd = max(latestEnd ?? end, end)
        return end
    }

    /// Counts an attempt of `test` whose outcome is `failing` or not, with one look-up.
    /// - Returns: the attempt's number.
    private mutating func nextAttempt(of test: String, failing: Bool) -> Int {
        let (number, change) = Self.advance(&tests[test, default: TestState()], failing: failing)
        failingCount += change
        return number
    }

    private static func advance(_ state: inout TestState, failing: Bool) -> (number: Int, change: Int) {
        state.attempts += 1
        let change = failing == state.failing ? 0 : failing ? 1 : -1
        state.failing = failing
        return (state.attempts, change)
    }
}
