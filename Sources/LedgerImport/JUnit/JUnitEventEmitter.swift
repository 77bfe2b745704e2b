import LedgerCore

/// Turns worked-out attempts into events: gives a testcase whose id an earlier one had its own id
/// or the earlier one's next attempts, numbers attempts per test id across the document, gives
/// each attempt its start and end, and keeps what `run.end` needs.
struct JUnitEventEmitter {
    /// What is known of one test id so far.
    private struct TestState {
        var attempts = 0
        var failing = false
        /// The testcases that had this id, retries or not: the next one kept apart is one more.
        var testcases = 1
    }

    let runID: String
    /// Per test id given out: a retry continues its numbering.
    private var tests: [String: TestState] = [:]
    /// Testcases stored as retries of an earlier testcase of their id.
    private(set) var retried = 0
    /// Testcases whose id an earlier testcase had, stored as tests of their own, and the first id
    /// one was given.
    private(set) var keptApart = (count: 0, example: nil as String?)
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

    /// The id to store a testcase of `id` under: `id` itself, also when it is a retry of an earlier
    /// testcase of that id, else the first of `id (2)`, `id (3)`… no testcase has had.
    mutating func claim(_ id: String, retry: Bool) -> String {
        guard let index = tests.index(forKey: id) else { return id }
        tests.values[index].testcases += 1
        if retry {
            retried += 1
            return id
        }
        var number = tests.values[index].testcases
        var candidate = "\(id) (\(number))"
        while tests[candidate] != nil {
            number += 1
            candidate = "\(id) (\(number))"
        }
        tests.values[index].testcases = number
        tests[candidate] = TestState(testcases: 1)
        keptApart.count += 1
        keptApart.example = keptApart.example ?? candidate
        return candidate
    }

    /// Whether a testcase of `id` would repeat an earlier one's id.
    func hasSeen(_ id: String) -> Bool { tests[id] != nil }

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
