/// Where producers put the events they make: the store, a file, a server or an array.
public protocol EventSink {
    /// Takes one event; throwing stops the producer.
    mutating func consume(_ record: LedgerRecord) throws
    /// Takes a warning about input that was skipped; by default it is dropped.
    mutating func warn(_ message: String)
}

extension EventSink {
    public mutating func warn(_ message: String) {}
}

/// A sink that keeps every event, in order: for tests and small inputs.
public struct CollectingSink: EventSink {
    public private(set) var records: [LedgerRecord] = []
    public private(set) var warnings: [String] = []

    public init() {}

    public mutating func consume(_ record: LedgerRecord) throws {
        records.append(record)
    }

    public mutating func warn(_ message: String) {
        warnings.append(message)
    }

    /// The events alone, without their run ids.
    public var events: [LedgerEvent] { records.map(\.event) }
}
