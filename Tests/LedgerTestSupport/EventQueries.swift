import LedgerCore

/// The events of one kind among those an importer or a recorder produced.
extension Sequence<LedgerEvent> {
    public var runStarts: [LedgerEvent.RunStart] { compactMap(\.runStart) }
    public var testStarts: [LedgerEvent.TestStart] { compactMap(\.testStart) }
    public var testEnds: [LedgerEvent.TestEnd] { compactMap(\.testEnd) }
    public var issues: [LedgerEvent.Issue] { compactMap(\.issue) }
    public var runEnds: [LedgerEvent.RunEnd] { compactMap(\.runEnd) }

    /// Each test's first final outcome.
    public var outcomes: [String: Outcome] {
        Dictionary(testEnds.map { ($0.test, $0.outcome) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Sequence<LedgerRecord> {
    /// The records' events, in order.
    public var events: [LedgerEvent] { map(\.event) }
}
