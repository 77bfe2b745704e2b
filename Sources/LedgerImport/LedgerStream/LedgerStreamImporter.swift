import Foundation
import LedgerCore

/// Reads the Ledger event stream (NDJSON, v1) itself: every line is already an event.
///
/// Run ids come from the stream, not from the context; problems the sink reports (events out
/// of order) are attributed to the line that caused them.
public struct LedgerStreamImporter: ResultImporter {
    public init() {}

    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        var decoder = EventStreamDecoder(source: context.sourceName)
        var lines = LineReader(input).makeIterator()
        while let line = lines.next() {
            guard let record = try decoder.decode(line: line, number: lines.lineNumber) else {
                decoder.warnings.forEach { sink.warn($0) }
                decoder.clearWarnings()
                continue
            }
            do {
                try sink.consume(record)
            } catch let error as LedgerInputError {
                throw error
            } catch {
                throw LedgerInputError(
                    source: context.sourceName, line: lines.lineNumber, problem: "\(error)",
                    fix: "send run.start first and each test.start before its test's other events")
            }
        }
        if let failure = lines.failure {
            throw LedgerInputError(
                source: context.sourceName, line: failure.line,
                problem: "line is longer than the \(LineReader.defaultMaximumLineLength >> 20) MiB limit",
                fix: "each event must be one line of JSON")
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
