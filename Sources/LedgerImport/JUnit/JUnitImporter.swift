import Foundation
import LedgerCore

/// Imports JUnit XML reports (pytest, SwiftPM and Swift Testing `--xunit-output`, xcbeautify,
/// fastlane trainer, Maven Surefire and other xUnit dialects) into the Ledger event stream.
///
/// The test id is `<classname>/<name>`. Suite counts are ignored: everything comes from the
/// testcases. Retries become attempts of one test: Surefire's `flaky*`/`rerun*` elements, and
/// any testcase whose classname and name were already seen in the file (trainer's
/// `repetition` rows). The document is read twice, streaming both times: once for what
/// `run.start` needs (trainer writes it after the testcases) and to prove the XML well-formed,
/// then to emit each testcase's events as it closes.
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
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        try JUnitXMLPass.checkProlog(of: input, sourceName: context.sourceName)
        let header = JUnitRunHeader()
        try JUnitXMLPass.run(input, sourceName: context.sourceName, handler: header)
        let runStart = context.metadata.runStart(
            at: header.start ?? context.fallbackStart, source: Self.source,
            configuration: header.configuration)
        let handler = JUnitDocumentHandler(
            sink: sink, runID: context.runID, emitter: JUnitEventEmitter(runStart: runStart))
        defer { sink = handler.sink }
        try handler.begin()
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
