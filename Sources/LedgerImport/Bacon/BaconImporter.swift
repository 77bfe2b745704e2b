import Foundation
import LedgerCore

/// Imports a file of Bacon's text output (SpecDox, Knock or Test::Unit style) through
/// ``BaconOutputParser``, and passes the parser's ``BaconOutputParser/notes`` to the sink as
/// warnings, each naming the input.
///
/// `StreamingImporter { BaconOutputParser(startedAt: $0) }` imports the same events without the
/// warnings.
public struct BaconImporter: ResultImporter {
    /// The longest line read, in bytes; a longer one is an error.
    public var maximumLineLength: Int

    /// Creates the importer.
    /// - Parameter maximumLineLength: the longest line read, in bytes.
    public init(maximumLineLength: Int = LineReader.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Reads `input` and emits its run into `sink`; the run starts at the context's
    /// `fallbackStart`, Bacon printing no times of its own.
    /// - Throws: ``LedgerInputError`` for a line longer than the limit or an input without any
    ///   Bacon output; whatever `sink` throws.
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        var parser = BaconOutputParser(startedAt: context.fallbackStart)
        let run = context.runID
        let start = context.metadata.runStart(at: context.fallbackStart, source: parser.source)
        try sink.consume(LedgerRecord(run: run, event: .runStart(start)))
        var lines = LineReader(input, maximumLineLength: maximumLineLength).makeIterator()
        while let line = lines.next() {
            for event in try parser.consume(Substring(String(decoding: line, as: UTF8.self)), at: nil) {
                try sink.consume(LedgerRecord(run: run, event: event))
            }
        }
        if let failure = lines.failure {
            throw LedgerInputError(
                source: context.sourceName, line: failure.line,
                problem: "line is longer than the \(maximumLineLength >> 20) MiB limit",
                fix: "check that this is Bacon's text output")
        }
        let events: [LedgerEvent]
        do {
            events = try parser.finish(at: nil)
        } catch let error as LedgerInputError {
            throw error.from(source: context.sourceName)
        }
        for note in parser.notes { sink.warn("\(context.sourceName): \(note)") }
        for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
    }
}
