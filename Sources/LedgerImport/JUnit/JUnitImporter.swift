import Foundation
import LedgerCore

/// Imports JUnit XML reports (pytest, SwiftPM and Swift Testing `--xunit-output`, xcbeautify,
/// fastlane trainer, Maven Surefire and other xUnit dialects) into the Ledger event stream.
///
/// The test id is `<classname>/<name>`. Suite counts are ignored: everything comes from the
/// testcases. Retries become attempts of one test: Surefire's `flaky*`/`rerun*` elements, and
/// any testcase whose classname and name were already seen in the file (trainer's
/// `repetition` rows). The document is read once, streaming, and each testcase's events are
/// emitted as it closes: `run.start` goes out before the first test with what is known by
/// then, and when the document ends a second `run.start` for the same run adds what came
/// later (trainer writes the device after the testcases; see ``JUnitRunHeader``). Malformed
/// XML is found only where it is, after events were emitted: as for any importer, the caller
/// discards them (the store rolls the whole input back).
///
/// `test.end` carries the skip reason of a skipped test, and for a failed attempt the last
/// 4 KB of its `system-out` and `system-err`; a passing test's output is not kept.
public struct JUnitImporter: ResultImporter {
    /// The `source` of the runs it records.
    public static let source = "junit"

    /// Creates the importer; it has no options.
    public init() {}

    /// Reads the JUnit XML `input` and emits its run into `sink`.
    /// - Throws: ``LedgerInputError`` for input that is not well-formed JUnit XML, or that
    ///   declares entities; whatever `sink` throws.
    public func importResults<Sink: EventSink>(
        from input: LineReader.Input, context: ImportContext, into sink: inout Sink
    ) throws {
        try JUnitXMLPass.checkProlog(of: input, sourceName: context.sourceName)
        let handler = JUnitDocumentHandler(
            sink: sink, context: context, source: Self.source,
            expectedTests: JUnitXMLPass.likelyTestcases(in: input))
        // The handler holds the sink it was given, so the cast back cannot fail.
        defer { if let updated = handler.sink as? Sink { sink = updated } }
        try JUnitXMLPass.run(input, sourceName: context.sourceName, handler: handler)
        try handler.end()
    }

    /// Whether `prefix`, the first bytes of a file (4 KB is plenty), opens JUnit XML: after an
    /// optional byte order mark, XML declaration, comments and document type declaration, a
    /// `<testsuites` or `<testsuite` element.
    public static func looksLikeJUnit(prefix: Data) -> Bool {
        JUnitProlog(scanning: prefix).opensJUnit
    }
}
