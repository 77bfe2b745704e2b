/// Where producers put the events they make: the store, a file, a server or an array.
public protocol EventSink {
    /// Takes one event; throwing stops the producer.
    /// - Parameter record: the event and the run it belongs to.
    /// - Throws: any error, to refuse the event; the producer stops and passes it on.
    mutating func consume(_ record: LedgerRecord) throws
    /// Takes a warning about input that was skipped; by default it is dropped.
    /// - Parameter message: what was skipped, naming where.
    mutating func warn(_ message: String)
}

/// An event a sink refuses because of the input itself (its order or references), not because of
/// the sink: an importer names the input's line for it. Any other error a sink throws (a store
/// that cannot write) passes through as it is.
public protocol EventInputProblem: Error {}

extension EventSink {
    /// Drops the warning; a sink that keeps warnings implements ``warn(_:)`` itself.
    /// - Parameter message: the warning, unused.
    public mutating func warn(_ message: String) {}
}

/// A sink that keeps every event, in order: for tests and small inputs.
public struct CollectingSink: EventSink {
    /// Every record consumed, in order.
    public private(set) var records: [LedgerRecord] = []
    /// Every warning received, in order.
    public private(set) var warnings: [String] = []

    /// Creates an empty sink.
    public init() {}

    /// Keeps `record` at the end of ``records``.
    /// - Parameter record: the record to keep.
    /// - Throws: nothing: this sink refuses no record.
    public mutating func consume(_ record: LedgerRecord) throws {
        records.append(record)
    }

    /// Keeps `message` at the end of ``warnings``.
    /// - Parameter message: the warning.
    public mutating func warn(_ message: String) {
        warnings.append(message)
    }

    /// The events alone, without their run ids.
    public var events: [LedgerEvent] { records.map(\.event) }
}
