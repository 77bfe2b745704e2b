import Foundation
import LedgerCore

/// Reads the Ledger event stream (NDJSON, v1) itself: every line is already an event.
///
/// Run ids come from the stream, not from the context; problems the sink reports (events out
/// of order) are attributed to the line that caused them. Lines are decoded on a thread of
/// their own, a few batches ahead, so that decoding and storing use both cores.
public struct LedgerStreamImporter: ResultImporter {
    /// Creates the importer; it has no options.
    public init() {}

    /// Reads the Ledger event stream `input` and passes its records to `sink` as they are.
    ///
    /// Lines of unknown event types are skipped, each with a warning.
    /// - Parameters:
    ///   - input: the stream, one JSON event per line.
    ///   - context: only its source name is used; run ids come from the stream.
    ///   - sink: where the records go, in order.
    /// - Throws: ``LedgerInputError`` naming the line: for a line that is not a valid event or is
    ///   longer than 64 MiB, and for whatever `sink` throws, which becomes a ``LedgerInputError`` of
    ///   that line when it is not one already.
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        let source = context.sourceName
        let batches = BackgroundProducer<DecodedBatch, any Error>(limit: 4) { send in
            try DecodedBatch.decode(input, source: source, into: send)
        }
        defer { batches.cancel() }
        while let batch = try batches.next() {
            batch.warnings.forEach { sink.warn($0) }
            for (record, line) in zip(batch.records, batch.lines) {
                do {
                    try sink.consume(record)
                } catch let error as any EventInputProblem {
                    throw LedgerInputError(
                        source: source, line: line, problem: "\(error)",
                        fix: "send run.start first and each test.start before its test's other events")
                }
            }
        }
    }

    /// Whether the first line of an input is a Ledger event (`"v":1` with a `type`).
    /// - Parameter firstLine: the input's first line, without its line break.
    /// - Returns: `true` when the line is a JSON object with `"v":1`, a string `type` and a string `run`.
    public static func looksLikeLedgerStream(firstLine: Data) -> Bool {
        guard
            let object = try? JSONSerialization.jsonObject(with: firstLine) as? [String: Any]
        else { return false }
        return object["v"] as? Int == LedgerRecord.version && object["type"] is String
            && object["run"] is String
    }
}
