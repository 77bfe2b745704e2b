import Foundation
import LedgerCore

/// Imports Swift Testing's JSON event stream, as written by
/// `swift test --event-stream-output-path FILE` (alias `--experimental-event-stream-output`).
///
/// Reads both record versions: `0` (Swift 6.0–6.2, and `--event-stream-version 0`) and
/// `"x.y.z"` strings (`"6.3.0"` from Swift 6.3 on). Each test function becomes one test with the
/// id `<Module>.<Suite path>/<name>` (`Module/<name>` outside any type); suites are not tests.
/// A parameterized function is one test that fails when any of its cases fails: the stream names
/// its cases only in the experimental `_testCase` field (always present in version 0), which
/// this importer does not read. Known issues and warnings do not fail a test. A test still
/// running when the stream ends crashed, and the run then has no `run.end`.
///
/// The input is read line by line; memory holds the tests' names and the tests in flight only.
public struct SwiftTestingImporter: ResultImporter {
    /// The longest line accepted, in bytes.
    public var maximumLineLength: Int

    /// Creates an importer.
    /// - Parameter maximumLineLength: The longest line accepted, in bytes; a longer one is an error.
    public init(maximumLineLength: Int = 64 << 20) {
        self.maximumLineLength = maximumLineLength
    }

    /// Reads a Swift Testing event stream from `input` and emits its Ledger events into `sink`.
    /// - Parameters:
    ///   - input: The stream: a file or data, one JSON record per line.
    ///   - context: The run id, the source name errors name, the metadata and the fallback start.
    ///   - sink: Where the events go, in order.
    /// - Throws: ``LedgerInputError`` naming the line when the input is malformed; what `sink`
    ///   throws.
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        try Self.checkReadable(input, context: context)
        let decoder = JSONDecoder()
        var translator = SwiftTestingTranslator(context: context)
        var lines = LineReader(input, maximumLineLength: maximumLineLength).makeIterator()
        while let line = lines.next() {
            guard line.count <= maximumLineLength else {
                throw tooLong(line: lines.lineNumber, context: context)
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let record: SwiftTestingRecord
            do {
                record = try decoder.decode(SwiftTestingRecord.self, from: line)
            } catch let error as DecodingError {
                throw SwiftTestingInputProblem.error(
                    source: context.sourceName, line: lines.lineNumber,
                    problem: SwiftTestingInputProblem.describe(error))
            }
            try translator.take(record, line: lines.lineNumber, into: &sink)
        }
        if let failure = lines.failure { throw tooLong(line: failure.line, context: context) }
        try translator.finish(into: &sink)
    }

    private func tooLong(line: Int, context: ImportContext) -> LedgerInputError {
        SwiftTestingInputProblem.error(
            source: context.sourceName, line: line,
            problem: "the line is longer than \(maximumLineLength) bytes",
            fix: "a Swift Testing record is far shorter: check that this is an event stream")
    }

    /// Fails early when a file cannot be read, which the line reader would take for an empty one.
    private static func checkReadable(_ input: LineReader.Input, context: ImportContext) throws {
        guard case .file(let url) = input, !FileManager.default.isReadableFile(atPath: url.path)
        else { return }
        throw LedgerInputError(
            source: context.sourceName, problem: "cannot read the file \(url.path)",
            fix: "check the path given to `--event-stream-output-path`")
    }
}
