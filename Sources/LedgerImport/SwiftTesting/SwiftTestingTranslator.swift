import LedgerCore

/// Turns decoded Swift Testing records into Ledger events, one record at a time.
///
/// It keeps only a map of test functions and the state of the tests in flight, so memory does not
/// grow with the length of the stream.
struct SwiftTestingTranslator {
    let context: ImportContext
    /// Test functions by Swift Testing id.
    var functions: [String: SwiftTestingTestInfo] = [:]
    /// Suite ids, so their own `testStarted`/`testEnded` are not taken for tests.
    var suites: Set<String> = []
    /// Started, not yet ended test functions by Swift Testing id.
    var inFlight: [String: SwiftTestingInFlightTest] = [:]
    /// The latest instant seen: where a test cut short by the end of the stream ends.
    var lastInstant: SwiftTestingRecord.Instant?
    /// Whether a test failed or crashed, or an issue outside any test failed the run.
    var runFailed = false
    private var sawRecord = false
    private var runStartEmitted = false
    private var runsStarted = 0
    private var runsEnded = 0
    private var runEndedAt: Double?

    init(context: ImportContext) {
        self.context = context
    }

    /// Takes the record of line `line`.
    /// - Throws: ``LedgerInputError`` when an event lacks a field its kind needs; what `sink` throws.
    mutating func take(
        _ record: SwiftTestingRecord, line: Int, into sink: inout some EventSink
    ) throws {
        sawRecord = true
        switch record.body {
        case .test(let test):
            remember(test)
        case .event(let event):
            if let instant = event.instant { lastInstant = instant }
            try handle(event, line: line, into: &sink)
        case .unknown:
            break
        }
    }

    /// Ends the stream: a test still in flight crashed, and the run ended only if it said so.
    /// - Throws: ``LedgerInputError`` when the input held no record; what `sink` throws.
    mutating func finish(into sink: inout some EventSink) throws {
        guard sawRecord else {
            throw LedgerInputError(
                source: context.sourceName, problem: "the input holds no Swift Testing record",
                fix: "pass the file written by `swift test --event-stream-output-path FILE`")
        }
        try startRunIfNeeded(into: &sink)
        let cutShort = inFlight.sorted {
            ($0.value.start.absolute, $0.key) < ($1.value.start.absolute, $1.key)
        }
        for (id, test) in cutShort {
            guard let info = functions[id] else { continue }
            try emit(.testEnd(crashEnd(of: test, named: info.parts.test)), into: &sink)
            runFailed = true
        }
        inFlight = [:]
        guard runsEnded > 0, runsEnded >= runsStarted, cutShort.isEmpty, let runEndedAt else {
            return
        }
        let outcome: RunOutcome = runFailed ? .failed : .passed
        try emit(.runEnd(LedgerEvent.RunEnd(at: runEndedAt, outcome: outcome)), into: &sink)
    }

    /// The `test.end` of a test cut short: it crashed at the last instant the stream reached.
    private func crashEnd(of test: SwiftTestingInFlightTest, named name: String)
        -> LedgerEvent.TestEnd
    {
        var end = test.start
        if let lastInstant, lastInstant.absolute > end.absolute { end = lastInstant }
        return test.end(
            of: name, at: end, outcome: .crashed,
            message: "the stream ended before the test did: its process crashed or was killed")
    }

    private mutating func remember(_ test: SwiftTestingRecord.Test) {
        switch test.kind {
        case "function": functions[test.id] = SwiftTestingTestInfo(test)
        case "suite": suites.insert(test.id)
        default: break
        }
    }

    private mutating func handle(
        _ event: SwiftTestingRecord.Event, line: Int, into sink: inout some EventSink
    ) throws {
        switch event.kind {
        case "runStarted":
            let instant = try required(event.instant, "instant", of: event, line: line)
            runsStarted += 1
            try startRunIfNeeded(at: instant.since1970, into: &sink)
        case "runEnded":
            runsEnded += 1
            runEndedAt = try required(event.instant, "instant", of: event, line: line).since1970
        case "testStarted": try testStarted(event, line: line, into: &sink)
        case "issueRecorded": try issueRecorded(event, line: line, into: &sink)
        case "testEnded": try testEnded(event, line: line, into: &sink)
        case "testSkipped": try testSkipped(event, line: line, into: &sink)
        case "testCancelled", "_testCancelled": try testCancelled(event, line: line, into: &sink)
        default: break  // test cases, attachments and kinds added after this importer
        }
    }

    /// Emits `run.start` once, before any test event.
    mutating func startRunIfNeeded(at: Double? = nil, into sink: inout some EventSink) throws {
        guard !runStartEmitted else { return }
        runStartEmitted = true
        let start = context.metadata.runStart(
            at: at ?? context.fallbackStart, source: "swift-testing")
        try emit(.runStart(start), into: &sink)
    }

    func emit(_ event: LedgerEvent, into sink: inout some EventSink) throws {
        try sink.consume(LedgerRecord(run: context.runID, event: event))
    }

    /// The value of a field the event's kind needs.
    /// - Throws: ``LedgerInputError`` naming the line when the field is absent.
    func required<Value>(
        _ value: Value?, _ field: String, of event: SwiftTestingRecord.Event, line: Int
    ) throws -> Value {
        guard let value else {
            throw LedgerInputError(
                source: context.sourceName, line: line,
                problem: "`\(event.kind)` event has no `\(field)`",
                fix: "each line must be one record of Swift Testing's JSON event stream")
        }
        return value
    }

    /// The test id and instant a test event's kind needs.
    /// - Throws: ``LedgerInputError`` naming the line when either is absent.
    func testAndInstant(of event: SwiftTestingRecord.Event, line: Int) throws -> (
        id: String, instant: SwiftTestingRecord.Instant
    ) {
        (
            try required(event.testID, "testID", of: event, line: line),
            try required(event.instant, "instant", of: event, line: line)
        )
    }
}
