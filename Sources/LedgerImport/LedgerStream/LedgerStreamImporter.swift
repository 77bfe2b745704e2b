import Foundation
import LedgerCore

/// Reads the Ledger event stream (NDJSON, v1) itself: every line is already an event.
///
/// Run ids come from the stream, not from the context; problems the sink reports (events out
/// of order) are attributed to the line that caused them. Lines are decoded on a thread of
/// their own, a few batches ahead, so that decoding and storing use both cores.
public struct LedgerStreamImporter: ResultImporter {
    public init() {}

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
                } catch let error as LedgerInputError {
                    throw error
                } catch {
                    throw LedgerInputError(
                        source: source, line: line, problem: "\(error)",
                        fix: "send run.start first and each test.start before its test's other events")
                }
            }
        }
    }

    /// Whether the first line of an input is a Ledger event (`"v":1` with a `type`).
    public static func looksLikeLedgerStream(firstLine: Data) -> Bool {
        guard
            let object = try? JSONSerialization.jsonObject(with: firstLine) as? [String: Any]
        else { return false }
        return object["v"] as? Int == LedgerRecord.version && object["type"] is String
            && object["run"] is String
    }
}
