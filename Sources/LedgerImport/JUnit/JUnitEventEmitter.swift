import LedgerCore

/// Turns worked-out attempts into events: numbers attempts per test id across the document,
/// gives each attempt its start and end, and opens and closes the run.
struct JUnitEventEmitter {
    let runStart: LedgerEvent.RunStart
    /// Attempts seen so far per test id: a test id seen again (a trainer retry, or the same
    /// classname and name twice) continues the numbering.
    private var attemptCounts: [String: Int] = [:]
    /// Test ids whose latest attempt failed, for `run.end`'s outcome.
    private var failing: Set<String> = []
    /// When the last attempt so far ended.
    private(set) var latestEnd: Double

    init(runStart: LedgerEvent.RunStart) {
        self.runStart = runStart
        self.latestEnd = runStart.at
    }

    /// The `run.start` event.
    var start: LedgerEvent { .runStart(runStart) }

    /// `run.end`, at the end of the last attempt; `failed` when some test's last attempt failed.
    var end: LedgerEvent {
        .runEnd(LedgerEvent.RunEnd(at: latestEnd, outcome: failing.isEmpty ? "passed" : "failed"))
    }

    /// The events of `attempts` of the test described by `test`, run one after the other
    /// from `start`.
    /// - Returns: the events, and when the last attempt ended.
    mutating func events(
        for test: LedgerEvent.TestStart, attempts: [JUnitAttempt], startingAt start: Double
    ) -> (events: [LedgerEvent], end: Double) {
        var events: [LedgerEvent] = []
        var clock = start
        for attempt in attempts {
            let number = (attemptCounts[test.test] ?? 0) + 1
            attemptCounts[test.test] = number
            var begin = test
            begin.at = clock
            begin.attempt = number
            events.append(.testStart(begin))
            for issue in attempt.issues {
                events.append(
                    .issue(
                        LedgerEvent.Issue(
                            at: clock, test: test.test, attempt: number, message: issue.message,
                            file: issue.file, line: issue.line, kind: issue.kind)))
            }
            let end = clock + attempt.duration
            events.append(
                .testEnd(
                    LedgerEvent.TestEnd(
                        at: end, test: test.test, attempt: number, outcome: attempt.outcome,
                        duration: attempt.duration, message: attempt.message)))
            clock = end
            if attempt.outcome.isFailure {
                failing.insert(test.test)
            } else {
                failing.remove(test.test)
            }
        }
        latestEnd = max(latestEnd, clock)
        return (events, clock)
    }
}
