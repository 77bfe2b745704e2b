import Foundation
import LedgerCore

/// Runs another importer on a thread of its own and hands its events to the caller's sink in
/// batches: parsing and storing then use both cores. At most a few batches wait in between.
public struct PipelinedImporter<Base: ResultImporter>: ResultImporter {
    /// The importer that runs on the other thread.
    public let base: Base

    /// Wraps an importer.
    /// - Parameter base: the importer to run on a thread of its own.
    public init(_ base: Base) {
        self.base = base
    }

    /// Runs ``base`` on a thread of its own and passes its events and warnings on to `sink`.
    ///
    /// Events cross in batches of up to 2,048, each batch's warnings ahead of its events. When `sink`
    /// throws, the base importer is stopped at its next full batch.
    /// - Parameters:
    ///   - input: the file or bytes to read.
    ///   - context: the run id, the source name errors name, the metadata and the fallback start.
    ///   - sink: where the events go, in order.
    /// - Throws: what the base importer throws (``LedgerInputError`` for malformed input), once the
    ///   events it emitted before are passed on; whatever `sink` throws.
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
