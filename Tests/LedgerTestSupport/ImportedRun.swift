import LedgerCore

/// The records one import or recording produced, with the questions tests ask of them.
public struct ImportedRun: RecordedEvents, Sendable {
    public var records: [LedgerRecord]
    public var warnings: [String]

    public init(records: [LedgerRecord], warnings: [String] = []) {
        self.records = records
        self.warnings = warnings
    }

    public var events: [LedgerEvent] { records.events }
    /// The last event, when it is `run.end`.
    public var runEnd: LedgerEvent.RunEnd? { events.last?.runEnd }

    /// The run's start as a store records the `run.start` events (`StoreWrites.upsertRun`):
    /// the earliest time, the first configuration given, the first of each other field.
    public var runStart: LedgerEvent.RunStart? {
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

    /// The distinct test ids, in the order they first appear.
    public var testIDs: [String] {
        var seen: Set<String> = []
        return starts.map(\.test).filter { seen.insert($0).inserted }
    }

    public func start(_ test: String, attempt: Int = 1) -> LedgerEvent.TestStart? {
        starts.first { $0.test == test && $0.attempt == attempt }
    }

    public func end(_ test: String, attempt: Int = 1) -> LedgerEvent.TestEnd? {
        ends.first { $0.test == test && $0.attempt == attempt }
    }

    /// The outcomes of every attempt of `test`, in order.
    public func outcomes(_ test: String) -> [Outcome] {
        ends.filter { $0.test == test }.map(\.outcome)
    }

    /// The final outcome of each test id.
    public var finalOutcomes: [String: Outcome] {
        Dictionary(ends.map { ($0.test, $0.outcome) }, uniquingKeysWith: { $1 })
    }

    public func issues(_ test: String, attempt: Int = 1) -> [LedgerEvent.Issue] {
        issues.filter { $0.test == test && $0.attempt == attempt }
    }

    /// Whether every attempt is `test.start`, its issues, then `test.end`, with nothing between.
    public var attemptsAreWellFormed: Bool {
        var open: (String, Int)?
        for event in events {
            switch event {
            case .testStart(let start):
                guard open == nil else { return false }
                open = (start.test, start.attempt)
            case .issue(let issue):
                guard let current = open, current == (issue.test, issue.attempt) else { return false }
            case .testEnd(let end):
                guard let current = open, current == (end.test, end.attempt) else { return false }
                open = nil
            default:
                guard open == nil else { return false }
            }
        }
        return open == nil
    }

    /// Whether times never go backwards within an attempt and durations match them.
    public var timesAreConsistent: Bool {
        starts.allSatisfy { start in
            guard let end = end(start.test, attempt: start.attempt) else { return false }
            return end.at >= start.at && abs((end.at - start.at) - end.duration) < 1e-6 && end.duration >= 0
        }
    }
}
