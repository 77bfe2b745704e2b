import Foundation
import LedgerCore

/// Decoded lines of the Ledger event stream, in order, with their line numbers and the
/// warnings met on the way.
struct DecodedBatch {
    var records: [LedgerRecord] = []
    var lines: [Int] = []
    var warnings: [String] = []

    /// Decodes `input`, sending batches of events and the rest at the end (also when decoding
    /// fails); stops early once `send` returns `false`. The first batch is small, so that the
    /// writer starts at once; each is twice the one before, up to `batchSize`.
    /// - Throws: the first decoding error, or a line longer than the limit.
    static func decode(
        _ input: LineReader.Input, source: String, batchSize: Int = 4_096, into send: (DecodedBatch) -> Bool
    ) throws {
        var decoder = EventStreamDecoder(source: source)
        var lines = LineReader(input).makeIterator()
        var batch = DecodedBatch()
        var size = min(64, batchSize)
        defer { _ = send(batch) }
        while let line = lines.next() {
            if let record = try decoder.decode(line: line, number: lines.lineNumber) {
                batch.records.append(record)
                batch.lines.append(lines.lineNumber)
            } else if !decoder.warnings.isEmpty {
                batch.warnings += decoder.warnings
                decoder.clearWarnings()
            }
            if batch.records.count >= size {
                guard send(batch) else { return }
                batch = DecodedBatch()
                size = min(size * 2, batchSize)
            }
        }
        if let failure = lines.failure {
            throw LedgerInputError(
                source: source, line: failure.line,
                problem: "line is longer than the \(LineReader.defaultMaximumLineLength >> 20) MiB limit",
                fix: "each event must be one line of JSON")
        }
    }
}
