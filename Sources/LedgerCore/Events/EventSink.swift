/// Where producers put the events they make: the store, a file, a server or an array.
public protocol EventSink {
    /// Takes one event; throwing stops the producer.
    mutating func consume(_ record: LedgerRecord) throws
}

/// A sink that keeps every event, in order: for tests and small inputs.
public struct CollectingSink: EventSink {
    public private(set) var records: [LedgerRecord] = []

    public init() {}

    public mutating func consume(_ record: LedgerRecord) throws {
        records.append(record)
    }

    /// The events alone, without their run ids.
    public var events: [LedgerEvent] { records.map(\.event) }
}
