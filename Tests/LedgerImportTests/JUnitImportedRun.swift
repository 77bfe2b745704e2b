import LedgerCore

/// The records one JUnit import emitted, with accessors for the checks tests make.
struct JUnitImportedRun {
    var records: [LedgerRecord]

    var events: [LedgerEvent] { records.map(\.event) }
    var types: [String] { events.map(\.type) }

    var runStart: LedgerEvent.RunStart? {
        guard case .runStart(let event)? = events.first else { return nil }
        return event
    }

    var runEnd: LedgerEvent.RunEnd? {
        guard case .runEnd(let event)? = events.last else { return nil }
        return event
    }

    var starts: [LedgerEvent.TestStart] {
        events.compactMap { if case .testStart(let event) = $0 { event } else { nil } }
    }

    var ends: [LedgerEvent.TestEnd] {
        events.compactMap { if case .testEnd(let event) = $0 { event } else { nil } }
    }

    var issues: [LedgerEvent.Issue] {
        events.compactMap { if case .issue(let event) = $0 { event } else { nil } }
    }

    /// The distinct test ids, in the order they first appear.
    var testIDs: [String] {
        var seen: Set<String> = []
        return starts.map(\.test).filter { seen.insert($0).inserted }
    }

    func start(_ test: String, attempt: Int = 1) -> LedgerEvent.TestStart? {
        starts.first { $0.test == test && $0.attempt == attempt }
    }

    func end(_ test: String, attempt: Int = 1) -> LedgerEvent.TestEnd? {
        ends.first { $0.test == test && $0.attempt == attempt }
    }

    /// The outcomes of every attempt of `test`, in order.
    func outcomes(_ test: String) -> [Outcome] {
        ends.filter { $0.test == test }.map(\.outcome)
    }

    func issues(_ test: String, attempt: Int = 1) -> [LedgerEvent.Issue] {
        issues.filter { $0.test == test && $0.attempt == attempt }
    }
}
