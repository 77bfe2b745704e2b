import Foundation
import LedgerCore

/// Imports the report `rspec --format json` writes (one JSON object) into the Ledger event stream.
/// Text after the object (SimpleCov's summary, printed to the same output) is left unread, with a
/// warning.
///
/// Each example is a test with the id `<spec file>:<group path>/<description>`: the spec file
/// without its leading `./`, the example groups' descriptions as RSpec joins them in
/// `full_description`, and the example's own description
/// (`spec/config/env_spec.rb:CheckEnvVars#call when all vars are defined/logs success`). The
/// suite is the group path; file and line are the example's. A second example with the same id
/// gets ` (2)` after it. Statuses map to passed, failed and skipped (`pending`, with its
/// pending message); an exception becomes the issue. The report has no timestamps: the run
/// starts at the context's `fallbackStart`, the examples follow one another for their
/// `run_time`, and `run.end` comes at the start plus the summary's `duration`. The run fails when
/// an example failed or errors occurred outside examples (their text is passed on as a warning).
public struct RSpecImporter: ResultImporter {
    /// The `source` of the runs it records.
    public static let source = "rspec"

    /// Creates the importer; it has no options.
    public init() {}

    /// Reads the RSpec JSON `input` and emits its run into `sink`.
    /// - Parameters:
    ///   - input: the report, a file or bytes.
    ///   - context: the run id, the source name errors name, the metadata and the fallback start.
    ///   - sink: where the events go, in order.
    /// - Throws: ``LedgerInputError`` for input that is not an RSpec JSON report, or larger than
    ///   512 MiB; whatever `sink` throws.
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        let reader = JSONReportReader(
            sourceName: context.sourceName, kind: "an RSpec JSON report",
            fix: "write it with `rspec --format json --out FILE`")
        let (report, ignored) = try reader.decodeFirstObject(RSpecReport.self, from: input)
        if ignored > 0 {
            sink.warn("\(context.sourceName): \(ignored) byte(s) after the report's JSON object were not read")
        }
        let run = context.runID
        let start = context.fallbackStart
        try sink.consume(
            LedgerRecord(run: run, event: .runStart(context.metadata.runStart(at: start, source: Self.source))))
        var clock = start
        var failed = false
        var ids = UniqueTestIDs()
        for (index, example) in report.examples.enumerated() {
            let name = example.name(index: index)
            let group = example.groupPath
            let test = ids.claim("\(example.specFile):\(group)/\(name)")
            let duration = max(0, example.runTime.flatMap { $0.isFinite ? $0 : nil } ?? 0)
            let events: [LedgerEvent] = [
                .testStart(
                    LedgerEvent.TestStart(
                        at: clock, test: test, suite: group.isEmpty ? nil : group, name: name,
                        file: example.specFile, line: example.lineNumber)),
                example.issue(at: clock, test: test).map(LedgerEvent.issue),
                .testEnd(
                    LedgerEvent.TestEnd(
                        at: clock + duration, test: test, outcome: example.outcome, duration: duration,
                        message: example.endMessage)),
            ].compactMap { $0 }
            for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
            failed = failed || example.outcome.isFailure
            clock += duration
        }
        let outside = report.summary?.errorsOutsideOfExamplesCount ?? 0
        if outside > 0 {
            failed = true
            let text = (report.messages ?? []).joined(separator: "\n")
            sink.warn(
                "\(context.sourceName): \(outside) error(s) outside of examples\(text.isEmpty ? "" : ": \(text)")")
        }
        let total = report.summary?.duration.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let end = max(clock, start + (total ?? 0))
        try sink.consume(
            LedgerRecord(run: run, event: .runEnd(LedgerEvent.RunEnd(at: end, outcome: failed ? .failed : .passed))))
    }
}
