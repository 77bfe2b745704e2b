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
        let queue = BoundedQueue<Result<ChannelSink.Batch?, any Error>>(depth: 4)
        defer { queue.cancel() }
        let thread = Thread { [base] in
            var channel = ChannelSink(queue: queue)
            do {
                try base.importResults(from: input, context: context, into: &channel)
                guard channel.flush() else { return }
                _ = queue.push(.success(nil))
            } catch {
                guard channel.flush() else { return }
                _ = queue.push(.failure(error))
            }
        }
        thread.stackSize = 1 << 22
        thread.start()
        while let batch = try queue.pop().get() {
            batch.warnings.forEach { sink.warn($0) }
            for record in batch.records { try sink.consume(record) }
        }
    }
}

/// The producing side of a ``PipelinedImporter``: collects events into batches and queues them.
struct ChannelSink: EventSink {
    struct Batch {
        var records: [LedgerRecord] = []
        var warnings: [String] = []
    }

    /// Thrown into the importer once the consumer has gone, to stop it.
    struct Cancelled: Error {}

    let queue: BoundedQueue<Result<Batch?, any Error>>
    private var batch = Batch()

    init(queue: BoundedQueue<Result<Batch?, any Error>>) {
        self.queue = queue
    }

    mutating func consume(_ record: LedgerRecord) throws {
        batch.records.append(record)
        if batch.records.count >= 2_048, !flush() { throw Cancelled() }
    }

    mutating func warn(_ message: String) {
        batch.warnings.append(message)
    }

    /// Queues what was collected; `false` once the consumer has gone.
    mutating func flush() -> Bool {
        defer { batch = Batch() }
        return queue.push(.success(batch))
    }
}
