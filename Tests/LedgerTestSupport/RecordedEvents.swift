import LedgerCore

/// What an import, a parse or a recording produced: the events, and the questions tests ask of them.
public protocol RecordedEvents {
    var events: [LedgerEvent] { get }
}

extension RecordedEvents {
    public var types: [String] { events.map(\.type) }
    public var runStarts: [LedgerEvent.RunStart] { events.runStarts }
    public var starts: [LedgerEvent.TestStart] { events.testStarts }
    public var ends: [LedgerEvent.TestEnd] { events.testEnds }
    public var issues: [LedgerEvent.Issue] { events.issues }
    public var runEnds: [LedgerEvent.RunEnd] { events.runEnds }

    /// The first `test.start` of the test with stable id `test`.
    public func start(of test: String) -> LedgerEvent.TestStart? { starts.first { $0.test == test } }
    /// The first `test.end` of the test with stable id `test`.
    public func end(of test: String) -> LedgerEvent.TestEnd? { ends.first { $0.test == test } }
    /// The first issue of the test with stable id `test`.
    public func issue(of test: String) -> LedgerEvent.Issue? { issues.first { $0.test == test } }
    /// Each test's first final outcome.
    public func outcomes() -> [String: Outcome] { events.outcomes }
}
