import LedgerCore

/// A sink that numbers every attempt `offset` after the one its producer gives: what a retry's
/// outputs say, which the importers number from 1, joins the run as the tests' next attempts
/// instead of repeating their first (which the store would keep as it was).
struct AttemptOffsetSink<Base: EventSink>: EventSink {
    var base: Base
    /// The attempts each test already had in the run.
    let offset: Int

    mutating func consume(_ record: LedgerRecord) throws {
        try base.consume(LedgerRecord(run: record.run, event: Self.shifted(record.event, by: offset)))
    }

    mutating func warn(_ message: String) {
        base.warn(message)
    }

    /// `event` with its attempt `offset` later; an event of no attempt as it is.
    static func shifted(_ event: LedgerEvent, by offset: Int) -> LedgerEvent {
        guard offset != 0 else { return event }
        switch event {
        case .testStart(var start):
            start.attempt += offset
            return .testStart(start)
        case .activityStart(var start):
            start.attempt += offset
            return .activityStart(start)
        case .capture(var capture):
            capture.attempt += offset
            return .capture(capture)
        case .predicate(var predicate):
            predicate.attempt += offset
            return .predicate(predicate)
        case .attachment(var attachment):
            attachment.attempt += offset
            return .attachment(attachment)
        case .issue(var issue):
            issue.attempt += offset
            return .issue(issue)
        case .testEnd(var end):
            end.attempt += offset
            return .testEnd(end)
        case .runStart, .activityEnd, .runEnd:
            return event
        }
    }
}

extension EventSink {
    /// Runs `produce` into this sink with every attempt `offset` later.
    mutating func offsettingAttempts(by offset: Int, _ produce: (inout AttemptOffsetSink<Self>) throws -> Void)
        rethrows
    {
        var shifting = AttemptOffsetSink(base: self, offset: offset)
        defer { self = shifting.base }
        try produce(&shifting)
    }
}
