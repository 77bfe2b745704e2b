import Foundation
import LedgerCore

/// Runs another importer on a thread of its own and hands its events to the caller's sink in
/// batches: parsing and storing then use both cores. At most a few batches wait in between.
public struct PipelinedImporter<Base: ResultImporter>: ResultImporter {
    public let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        let batches = BackgroundProducer<ChannelSink.Batch, any Error>(limit: 4) { [base] send in
            var channel = ChannelSink(send: send)
            defer { _ = channel.flush() }
            try base.importResults(from: input, context: context, into: &channel)
        }
        defer { batches.cancel() }
        while let batch = try batches.next() {
            batch.warnings.forEach { sink.warn($0) }
            for record in batch.records { try sink.consume(record) }
        }
    }
}

/// The producing side of a ``PipelinedImporter``: collects events into batches and sends them.
struct ChannelSink: EventSink {
    struct Batch {
        var records: [LedgerRecord] = []
        var warnings: [String] = []
    }

    /// Thrown into the importer once the consumer has gone, to stop it.
    struct Cancelled: Error {}

    private let send: (Batch) -> Bool
    private var batch = Batch()

    init(send: @escaping (Batch) -> Bool) {
        self.send = send
    }

    mutating func consume(_ record: LedgerRecord) throws {
        batch.records.append(record)
        if batch.records.count >= 2_048, !flush() { throw Cancelled() }
    }

    mutating func warn(_ message: String) {
        batch.warnings.append(message)
    }

    /// Sends what was collected; `false` once the consumer has gone.
    mutating func flush() -> Bool {
        defer { batch = Batch() }
        return send(batch)
    }
}
