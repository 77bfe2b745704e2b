import Foundation
import LedgerCore

/// Reads a runner's console output one line at a time, as it arrives, and tells what each line
/// means as Ledger events (`test.start`, `issue`, `test.end`, …; never `run.start`).
///
/// The same parser serves `testledger format`, which feeds lines with the time they arrived,
/// and `testledger ingest`, which feeds a file's lines without times: then a test's duration is
/// what the output says (TAP's `duration_ms`) or 0, and its start follows the one before it.
public protocol StreamingParser {
    /// The run's `source`, e.g. `tap` or `bacon`.
    var source: String { get }

    /// Reads one line, without its line break.
    /// - Parameters:
    ///   - line: the line.
    ///   - at: when it arrived (seconds since 1970), or `nil` when reading a file.
    /// - Returns: the events the line completes, in order.
    /// - Throws: ``LedgerInputError`` for output that cannot be this format.
    mutating func consume(_ line: Substring, at: Double?) throws -> [LedgerEvent]

    /// The output ended: closes what is open. A run that ended properly (its summary or plan
    /// was seen, no bail-out) ends with `run.end`; one that was cut short does not, so it shows
    /// as interrupted.
    mutating func finish(at: Double?) throws -> [LedgerEvent]
}

/// Imports a file through a ``StreamingParser``.
public struct StreamingImporter<Parser: StreamingParser & Sendable>: ResultImporter {
    private let makeParser: @Sendable (_ startedAt: Double) -> Parser

    /// - Parameter makeParser: makes a parser for a run that started at the given time.
    public init(_ makeParser: @escaping @Sendable (_ startedAt: Double) -> Parser) {
        self.makeParser = makeParser
    }

    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        var parser = makeParser(context.fallbackStart)
        let run = context.runID
        try sink.consume(
            LedgerRecord(
                run: run, event: .runStart(context.metadata.runStart(at: context.fallbackStart, source: parser.source)))
        )
        var lines = LineReader(input).makeIterator()
        while let line = lines.next() {
            let text = String(decoding: line, as: UTF8.self)
            do {
                for event in try parser.consume(Substring(text), at: nil) {
                    try sink.consume(LedgerRecord(run: run, event: event))
                }
            } catch var error as LedgerInputError {
                error.source = context.sourceName
                error.line = error.line ?? lines.lineNumber
                throw error
            }
        }
        if let failure = lines.failure {
            throw LedgerInputError(
                source: context.sourceName, line: failure.line,
                problem: "line is longer than the \(LineReader.defaultMaximumLineLength >> 20) MiB limit",
                fix: "check that this is a runner's text output")
        }
        for event in try parser.finish(at: nil) {
            try sink.consume(LedgerRecord(run: run, event: event))
        }
    }
}
