import Foundation
import LedgerCore

/// Decodes the Ledger event stream on a thread of its own, a few batches of lines ahead of
/// the reader, so that decoding and storing use both cores while memory stays bounded.
final class DecodedBatches: @unchecked Sendable {
    /// Decoded lines, in order, with their line numbers and the warnings met on the way.
    struct Batch {
        var records: [LedgerRecord] = []
        var lines: [Int] = []
        var warnings: [String] = []
    }

    private let queue = BoundedQueue<Result<Batch?, any Error>>(depth: 4)
    private var finished: Result<Batch?, any Error>?

    /// Starts decoding `input` at once.
    init(_ input: LineReader.Input, source: String, batchSize: Int = 4_096) {
        let thread = Thread { [queue] in Self.produce(input, source: source, batchSize: batchSize, into: queue) }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// The next batch; `nil` at the end of the input.
    /// - Throws: the first decoding error, after every batch before it.
    func next() throws -> Batch? {
        if let finished { return try finished.get() }
        let item = queue.pop()
        if case .success(.some) = item { return try item.get() }
        finished = item
        return try item.get()
    }

    /// Stops the decoding thread early (the reader gave up).
    func cancel() {
        queue.cancel()
    }

    private static func produce(
        _ input: LineReader.Input, source: String, batchSize: Int, into queue: BoundedQueue<Result<Batch?, any Error>>
    ) {
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
                    guard queue.push(.success(batch)) else { return }
                    batch = Batch()
                }
            }
            if let failure = lines.failure {
                throw LedgerInputError(
                    source: source, line: failure.line,
                    problem: "line is longer than the \(LineReader.defaultMaximumLineLength >> 20) MiB limit",
                    fix: "each event must be one line of JSON")
            }
            guard queue.push(.success(batch)) else { return }
            _ = queue.push(.success(nil))
        } catch {
            guard queue.push(.success(batch)) else { return }
            _ = queue.push(.failure(error))
        }
    }
}
