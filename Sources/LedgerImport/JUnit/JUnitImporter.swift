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

    /// How many bytes are read ahead to check the prolog; JUnit reports' prologs are tiny.
    private static let prologLimit = 64 * 1024

    /// Creates the importer; it has no options.
    public init() {}

    /// Reads the JUnit XML `input` and emits its run into `sink`.
    /// - Parameters:
    ///   - input: the JUnit XML file or bytes.
    ///   - context: the run id, the source name errors name, the metadata and the fallback start.
    ///   - sink: where the events go, in order.
    /// - Throws: ``LedgerInputError`` for input that is not well-formed JUnit XML, or that
    ///   declares entities; whatever `sink` throws.
    public func importResults<Sink: EventSink>(
        from input: LineReader.Input, context: ImportContext, into sink: inout Sink
    ) throws {
        try Self.checkProlog(of: input, sourceName: context.sourceName)
        if let offset = JUnitInstructionScan.firstEmptyInstruction(in: input) {
            throw JUnitInputErrors.emptyInstruction(
                context.sourceName, line: JUnitInstructionScan.line(of: offset, in: input))
        }
        let document = JUnitDocument(
            sink: sink, context: context, source: Self.source, expectedTests: Self.likelyTestcases(in: input))
        let reader = JUnitXMLReader(document: document, sourceName: context.sourceName)
        // The document holds the sink it was given, so the cast back cannot fail.
        defer { if let updated = reader.document.sink as? Sink { sink = updated } }
        try reader.read(input)
    }

    /// Whether `prefix`, the first bytes of a file (4 KB is plenty), opens JUnit XML: after an
    /// optional byte order mark, XML declaration, comments and document type declaration, a
    /// `<testsuites` or `<testsuite` element.
    /// - Parameter prefix: the input's first bytes.
    /// - Returns: `true` when they look like JUnit XML.
    public static func looksLikeJUnit(prefix: Data) -> Bool {
        JUnitProlog(scanning: prefix).opensJUnit
    }

    /// Checks what precedes the root element before `XMLParser` sees anything: refuses input
    /// that is not JUnit and document type declarations that define entities or load a DTD.
    /// - Throws: ``LedgerInputError`` naming the problem.
    private static func checkProlog(of input: LineReader.Input, sourceName: String) throws {
        let prefix = try Self.prefix(of: input, sourceName: sourceName)
        let prolog = JUnitProlog(scanning: prefix)
        if !prolog.startsLikeXML {
            throw JUnitInputErrors.malformed(sourceName, code: 4, line: 1, column: 1)
        }
        if !prolog.hasSafeEncoding, let encoding = prolog.declaredEncoding {
            throw JUnitInputErrors.unsafeEncoding(sourceName, encoding)
        }
        if prolog.hasRiskyDoctype {
            throw JUnitInputErrors.riskyDoctype(sourceName, line: prolog.doctypeLine)
        }
        if let root = prolog.rootElement, !prolog.opensJUnit {
            throw JUnitInputErrors.notJUnit(sourceName, root: root, line: prolog.rootLine)
        }
        if prolog.rootElement == nil, prefix.count >= prologLimit {
            throw JUnitInputErrors.longProlog(sourceName, limit: prologLimit)
        }
    }

    private static func prefix(of input: LineReader.Input, sourceName: String) throws -> Data {
        switch input {
        case .data(let data):
            return data.prefix(prologLimit)
        case .file(let url):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                return try handle.read(upToCount: prologLimit) ?? Data()
            } catch {
                throw JUnitInputErrors.unreadable(sourceName, error.localizedDescription)
            }
        }
    }

    /// A guess at how many testcases `input` holds, for sizing tables up front: one per 64
    /// bytes (a bare `<testcase classname="A" name="b" time="0.1"/>` line is about that),
    /// at most 32,768 so that a huge report of few tests costs little; 0 when the size is
    /// unknown.
    private static func likelyTestcases(in input: LineReader.Input) -> Int {
        let bytes: Int
        switch input {
        case .data(let data):
            bytes = data.count
        case .file(let url):
            bytes = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return min(bytes / 64, 32_768)
    }
}
