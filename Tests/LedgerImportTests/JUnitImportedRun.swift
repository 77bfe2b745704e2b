import LedgerCore

/// The records one JUnit import emitted, with accessors for the checks tests make.
struct JUnitImportedRun {
    var records: [LedgerRecord]

    var events: [LedgerEvent] { records.map(\.event) }
    var types: [String] { events.map(\.type) }

    /// Every `run.start`: the one sent before the first test, and a second one when the
    /// document said more about the run after it.
    var runStarts: [LedgerEvent.RunStart] {
        events.compactMap { if case .runStart(let event) = $0 { event } else { nil } }
    }

    /// The run's start as a store records the `run.start` events (`StoreWrites.upsertRun`):
    /// the earliest time, the first configuration given, the first of each other field.
    var runStart: LedgerEvent.RunStart? {
        guard var merged = runStarts.first else { return nil }
        for later in runStarts.dropFirst() {
            merged.at = min(merged.at, later.at)
            merged.configuration = merged.configuration ?? later.configuration
            merged.revision = merged.revision ?? later.revision
            merged.branch = merged.branch ?? later.branch
            merged.ci = merged.ci ?? later.ci
            merged.host = merged.host ?? later.host
            merged.attempt = merged.attempt ?? later.attempt
            merged.labels = merged.labels ?? later.labels
        }
        return merged
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
