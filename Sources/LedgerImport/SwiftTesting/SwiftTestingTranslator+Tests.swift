import LedgerCore

extension SwiftTestingTranslator {
    /// The function an event is about; `nil` for suites and for ids that name no function.
    private mutating func function(_ id: String) -> SwiftTestingTestInfo? {
        if let info = functions[id] { return info }
        guard !suites.contains(id), SwiftTestingTestID.hasSourceLocation(id) else { return nil }
        let info = SwiftTestingTestInfo(unrecordedID: id)
        functions[id] = info
        return info
    }

    /// Counts a new attempt of the function and returns its number.
    private mutating func nextAttempt(of id: String, iteration: Int?) -> Int {
        let attempt = iteration ?? ((functions[id]?.attempts ?? 0) + 1)
        functions[id]?.attempts = attempt
        return attempt
    }

    mutating func testStarted(
        _ event: SwiftTestingRecord.Event, line: Int, into sink: inout some EventSink
    ) throws {
        let (id, instant) = try testAndInstant(of: event, line: line)
        guard inFlight[id] == nil, let info = function(id) else { return }
        try startRunIfNeeded(into: &sink)
        let attempt = nextAttempt(of: id, iteration: event.iteration)
        try emit(.testStart(info.start(at: instant.since1970, attempt: attempt)), into: &sink)
        inFlight[id] = SwiftTestingInFlightTest(attempt: attempt, start: instant)
    }

    mutating func issueRecorded(
        _ event: SwiftTestingRecord.Event, line: Int, into sink: inout some EventSink
    ) throws {
        let issue = try required(event.issue, "issue", of: event, line: line)
        let instant = try required(event.instant, "instant", of: event, line: line)
        guard let id = event.testID, inFlight[id] != nil, let info = functions[id] else {
            // An issue outside any running test (a suite's, or the run's) has no test to go to.
            if issue.failsTest { runFailed = true }
            return
        }
        guard issue.failsTest else {
            if issue.isKnown == true, inFlight[id]?.knownIssue == nil {
                inFlight[id]?.knownIssue = event.text
            }
            return
        }
        inFlight[id]?.failed = true
        let text = event.text
        // Only the text tells a thrown error from a failed expectation: the structured
        // `_error` field exists in version 0 alone.
        let issueEvent = LedgerEvent.Issue(
            at: instant.since1970, test: info.parts.test, attempt: inFlight[id]?.attempt ?? 1,
            message: text.isEmpty ? "Issue recorded" : text, file: issue.sourceLocation?.file,
            line: issue.sourceLocation?.line,
            kind: text.hasPrefix("Caught error") ? .error : .assertion)
        try emit(.issue(issueEvent), into: &sink)
    }

    mutating func testEnded(
        _ event: SwiftTestingRecord.Event, line: Int, into sink: inout some EventSink
    ) throws {
        let (id, instant) = try testAndInstant(of: event, line: line)
        guard let test = inFlight.removeValue(forKey: id), let info = functions[id] else { return }
        let (outcome, message) = test.ending
        if outcome.isFailure { runFailed = true }
        let end = test.end(of: info.parts.test, at: instant, outcome: outcome, message: message)
        try emit(.testEnd(end), into: &sink)
    }

    mutating func testSkipped(
        _ event: SwiftTestingRecord.Event, line: Int, into sink: inout some EventSink
    ) throws {
        let (id, instant) = try testAndInstant(of: event, line: line)
        let text = event.text
        try skip(
            id, at: instant, iteration: event.iteration, message: text.isEmpty ? "skipped" : text,
            into: &sink)
    }

    /// A cancelled test in flight ends as skipped at its `testEnded`; one not started yet is
    /// skipped at once.
    mutating func testCancelled(
        _ event: SwiftTestingRecord.Event, line: Int, into sink: inout some EventSink
    ) throws {
        let (id, instant) = try testAndInstant(of: event, line: line)
        if inFlight[id] != nil {
            inFlight[id]?.cancelled = true
        } else {
            try skip(id, at: instant, iteration: event.iteration, message: "cancelled", into: &sink)
        }
    }

    /// Emits a `test.start` and a `test.end` of outcome skipped, both at `instant`.
    private mutating func skip(
        _ id: String, at instant: SwiftTestingRecord.Instant, iteration: Int?, message: String,
        into sink: inout some EventSink
    ) throws {
        guard inFlight[id] == nil, let info = function(id) else { return }
        try startRunIfNeeded(into: &sink)
        let attempt = nextAttempt(of: id, iteration: iteration)
        try emit(.testStart(info.start(at: instant.since1970, attempt: attempt)), into: &sink)
        let end = LedgerEvent.TestEnd(
            at: instant.since1970, test: info.parts.test, attempt: attempt, outcome: .skipped,
            duration: 0, message: message)
        try emit(.testEnd(end), into: &sink)
    }
}
