import Foundation
import LedgerCore

/// Decodes the Ledger event stream on a thread of its own, a batch of lines ahead of the
/// reader, so that decoding and storing use both cores. At most `depth` batches wait, so
/// memory stays bounded whatever the input's size.
final class DecodedBatches: @unchecked Sendable {
    /// Decoded lines, in order, with their line numbers and the warnings met on the way.
    struct Batch {
        var records: [LedgerRecord] = []
        var lines: [Int] = []
        var warnings: [String] = []
    }

    private enum Item {
        case batch(Batch)
        case failure(any Error)
        case end
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var cancelled = false
    private let depth: Int

    /// Starts decoding `input` at once.
    init(_ input: LineReader.Input, source: String, batchSize: Int = 4_096, depth: Int = 4) {
        self.depth = depth
        let thread = Thread { [self] in produce(input, source: source, batchSize: batchSize) }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// The next batch; `nil` at the end of the input.
    /// - Throws: the first decoding error, after every batch before it.
    func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        let item = items.removeFirst()
        condition.signal()
        switch item {
        case .batch(let batch): return batch
        case .failure(let error):
            items.insert(item, at: 0)
            throw error
        case .end:
            items.insert(item, at: 0)
            return nil
        }
    }

    /// Stops the decoding thread early (the reader gave up).
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func produce(_ input: LineReader.Input, source: String, batchSize: Int) {
        var decoder = EventStreamDecoder(source: source)
        var lines = LineReader(input).makeIterator()
        var batch = Batch()
        do {
            while let line = lines.next() {
                if let record = try decoder.decode(line: line, number: lines.lineNumber) {
                    batch.records.append(record)
                    batch.lines.append(lines.lineNumber)
                } else if !decoder.warnings.isEmpty {
                    batch.warnings += decoder.warnings
                    decoder.clearWarnings()
                }
                if batch.records.count >= batchSize {
                    guard push(.batch(batch)) else { return }
                    batch = Batch()
                }
            }
            if let failure = lines.failure {
                throw LedgerInputError(
                    source: source, line: failure.line,
                    problem: "line is longer than the \(LineReader.defaultMaximumLineLength >> 20) MiB limit",
                    fix: "each event must be one line of JSON")
            }
            guard push(.batch(batch)) else { return }
            _ = push(.end)
        } catch {
            guard push(.batch(batch)) else { return }
            _ = push(.failure(error))
        }
    }

    /// Queues an item, waiting while `depth` are queued; `false` once cancelled.
    private func push(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= depth, !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.signal()
        return true
    }
}
