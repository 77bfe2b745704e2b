import Foundation
import LedgerCore

/// Imports a file of a runner's console output through a ``StreamingParser``, and passes the
/// parser's ``StreamingParser/notes`` to the sink as warnings, each naming the input.
///
/// The run starts at the context's `fallbackStart`, console output having no times of its own.
public struct StreamingImporter<Parser: StreamingParser>: ResultImporter {
    /// The longest line accepted, in bytes; a longer one is an error.
    public var maximumLineLength: Int

    /// Creates the importer.
    /// - Parameter maximumLineLength: the longest line accepted, in bytes.
    public init(maximumLineLength: Int = LineReader.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Reads `input` and emits its run into `sink`.
    /// - Parameters:
    ///   - input: the file or bytes to read.
    ///   - context: the run id, the source name errors name, the metadata and the fallback start.
    ///   - sink: where the events go, in order.
    /// - Throws: ``LedgerInputError`` for a line longer than the limit or an input in which
    ///   nothing was this format; whatever `sink` throws.
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        var parser = Parser(startedAt: context.fallbackStart)
        let run = context.runID
        let start = context.metadata.runStart(at: context.fallbackStart, source: parser.source)
        try sink.consume(LedgerRecord(run: run, event: .runStart(start)))
        var warned = 0
        var lines = LineReader(input, maximumLineLength: maximumLineLength).makeIterator()
        while let line = lines.next() {
            do {
                for event in try parser.consume(Substring(String(decoding: line, as: UTF8.self)), at: nil) {
                    try sink.consume(LedgerRecord(run: run, event: event))
                }
            } catch var error as LedgerInputError {
                error.source = context.sourceName
                error.line = error.line ?? lines.lineNumber
                throw error
            }
            warned = warn(parser.notes, from: warned, context: context, into: &sink)
        }
        if let failure = lines.failure {
            throw LedgerInputError(
                source: context.sourceName, line: failure.line,
                problem: "line is longer than the \(maximumLineLength >> 20) MiB limit",
                fix: "check that this is \(Parser.outputName)")
        }
        let events: [LedgerEvent]
        do {
            events = try parser.finish(at: nil)
        } catch let error as LedgerInputError {
            throw error.from(source: context.sourceName)
        }
        _ = warn(parser.notes, from: warned, context: context, into: &sink)
        for event in events {
            try sink.consume(LedgerRecord(run: run, event: event))
        }
    }

    /// Sends the notes from index `start` on as warnings.
    /// - Returns: how many notes have been sent.
    private func warn(
        _ notes: [String], from start: Int, context: ImportContext, into sink: inout some EventSink
    ) -> Int {
        for note in notes.dropFirst(start) {
            sink.warn("\(context.sourceName): \(note)")
        }
        return notes.count
    }
}
