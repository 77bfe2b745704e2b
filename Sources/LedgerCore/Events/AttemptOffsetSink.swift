/// A sink that numbers every attempt `offset` after the one its producer gives: what a retry's
/// outputs say, which the importers number from 1, joins the run as the tests' next attempts
/// instead of repeating their first (which the store would keep as it was).
///
/// Every event of an attempt (test start and end, activity start, capture, predicate,
/// attachment, issue) is shifted; `run.start` (whose attempt is the CI job's re-run),
/// `activity.end` and `run.end` pass as they are.
public struct AttemptOffsetSink<Base: EventSink>: EventSink {
    /// The sink the shifted events go to.
    public var base: Base
    /// The attempts each test already had in the run.
    public let offset: Int

    /// A sink that passes every event to `base`, its attempt `offset` later.
    /// - Parameters:
    ///   - base: the sink the shifted events go to.
    ///   - offset: the attempts each test already had in the run; 0 shifts nothing.
    public init(base: Base, offset: Int) {
        self.base = base
        self.offset = offset
    }

    /// Passes `record` to ``base`` with its attempt ``offset`` later.
    /// - Parameter record: the event and the run it belongs to.
    /// - Throws: what ``base`` throws.
    public mutating func consume(_ record: LedgerRecord) throws {
        try base.consume(LedgerRecord(run: record.run, event: Self.shifted(record.event, by: offset)))
    }

    /// Passes the warning to ``base``.
    /// - Parameter message: what was skipped, naming where.
    public mutating func warn(_ message: String) {
        base.warn(message)
    }

    /// `event` with its attempt `offset` later; an event of no test attempt as it is.
    /// - Parameters:
    ///   - event: the event as its producer numbers it.
    ///   - offset: how many attempts later.
    /// - Returns: the shifted event.
    public static func shifted(_ event: LedgerEvent, by offset: Int) -> LedgerEvent {
        offset == 0 ? event : event.attemptShifted(by: offset)
    }
}

extension EventSink {
    /// Runs `produce` into this sink with every attempt `offset` later.
    /// - Parameters:
    ///   - offset: the attempts each test already had in the run.
    ///   - produce: writes the events, as its producer numbers them, into the shifting sink.
    /// - Throws: what `produce` throws; the events it wrote before are in this sink.
    public mutating func offsettingAttempts(
        by offset: Int, _ produce: (inout AttemptOffsetSink<Self>) throws -> Void
    ) rethrows {
        var shifting = AttemptOffsetSink(base: self, offset: offset)
        defer { self = shifting.base }
        try produce(&shifting)
    }
}
