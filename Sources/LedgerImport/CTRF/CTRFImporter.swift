import Foundation
import LedgerCore

/// Imports a Common Test Report Format (CTRF) report, the JSON many test reporters write, into
/// the Ledger event stream.
///
/// Each test's id is its suites joined by ` > ` and its name (`Login > signs in/with a password`),
/// or its name alone; a second test with the same id gets ` (2)`. A retried test becomes its
/// attempts: those of `retryAttempts` (less the last, when they are more than `retries`: the final
/// attempt, listed too), else, when the reporter gave only a count (`retries`),
/// that many failed attempts with no detail (a test runs again only after it failed), then the
/// final one. `passed`, `failed` and `skipped` map to themselves, `pending` to skipped, `other`
/// to an error. Times in milliseconds (or seconds, which some reporters write) place the run
/// and its tests; without them tests follow one another from the run's start.
public struct CTRFImporter: ResultImporter {
    /// The `source` of the runs it records.
    public static let source = "ctrf"

    /// Creates the importer; it has no options.
    public init() {}

    /// Reads the CTRF report `input` and emits its run into `sink`.
    /// - Throws: ``LedgerInputError`` for input that is not a CTRF report, or larger than 512 MiB;
    ///   whatever `sink` throws.
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        let reader = JSONReportReader(
            sourceName: context.sourceName, kind: "a CTRF report",
            fix: "check that the reporter wrote a CTRF JSON report (results.tool, results.tests)")
        let report = try reader.decode(CTRFReport.self, from: input)
        let run = context.runID
        let start = Self.seconds(report.results.summary?.start) ?? context.fallbackStart
        try sink.consume(
            LedgerRecord(run: run, event: .runStart(context.metadata.runStart(at: start, source: Self.source))))
        var clock = start
        var failed = false
        var ids = UniqueTestIDs()
        for test in report.results.tests {
            let id = ids.claim(test.suite.isEmpty ? test.name : test.suite.joined(separator: " > ") + "/" + test.name)
            let attempts = Self.attempts(of: test)
            var at = Self.seconds(test.start).map { $0 - attempts.dropLast().reduce(0) { $0 + $1.seconds } } ?? clock
            for (index, attempt) in attempts.enumerated() {
                let number = index + 1
                let outcome = Self.outcome(attempt.status)
                var events: [LedgerEvent] = [
                    .testStart(
                        LedgerEvent.TestStart(
                            at: at, test: id, attempt: number,
                            suite: test.suite.isEmpty ? nil : test.suite.joined(separator: " > "),
                            name: test.name, file: test.filePath, line: test.line))
                ]
                if outcome.isFailure {
                    events.append(
                        .issue(
                            LedgerEvent.Issue(
                                at: at + attempt.seconds, test: id, attempt: number,
                                message: (attempt.message?.isEmpty == false ? attempt.message : nil)
                                    ?? (attempt.status == "other" ? "status other" : "failed"),
                                file: test.filePath, line: attempt.line ?? test.line)))
                }
                events.append(
                    .testEnd(
                        LedgerEvent.TestEnd(
                            at: at + attempt.seconds, test: id, attempt: number, outcome: outcome,
                            duration: attempt.seconds,
                            message: outcome == .skipped ? attempt.message : attempt.trace?.clipped)))
                for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
                at += attempt.seconds
            }
            failed = failed || Self.outcome(test.status).isFailure
            clock = max(clock, at)
        }
        let end = max(clock, Self.seconds(report.results.summary?.stop) ?? clock)
        try sink.consume(
            LedgerRecord(run: run, event: .runEnd(LedgerEvent.RunEnd(at: end, outcome: failed ? .failed : .passed))))
    }

    /// One attempt as the importer emits it.
    struct Attempt {
        var status: String
        var seconds: Double
        var message: String?
        var trace: String?
        var line: Int?
    }

    /// The test's attempts in order, the final one last.
    static func attempts(of test: CTRFTest) -> [Attempt] {
        let final = Attempt(
            status: test.status, seconds: milliseconds(test.duration), message: test.message, trace: test.trace,
            line: test.line)
        let earlier: [Attempt]
        if !test.retryAttempts.isEmpty {
            let listed = test.retryAttempts.sorted { ($0.attempt ?? 0) < ($1.attempt ?? 0) }.map {
                Attempt(
                    status: $0.status, seconds: milliseconds($0.duration), message: $0.message, trace: $0.trace,
                    line: $0.line)
            }
            // The specification's own example lists every attempt, the final one too, beside a
            // `retries` that counts the ones before it.
            earlier = test.retries > 0 && listed.count > test.retries ? Array(listed.dropLast()) : listed
        } else {
            earlier = Array(
                repeating: Attempt(
                    status: "failed", seconds: 0, message: "failed (the report gives no detail of this attempt)"),
                count: min(max(test.retries, 0), 100))
        }
        return earlier + [final]
    }

    static func outcome(_ status: String) -> Outcome {
        switch status {
        case "passed": .passed
        case "failed": .failed
        case "skipped", "pending": .skipped
        default: .error
        }
    }

    /// A duration in milliseconds as seconds; 0 when absent or not a duration.
    static func milliseconds(_ value: Double?) -> Double {
        guard let value, value.isFinite, value >= 0 else { return 0 }
        return value / 1000
    }

    /// A time as seconds since 1970: milliseconds as CTRF says, or seconds as some reporters write.
    static func seconds(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return value > 100_000_000_000 ? value / 1000 : value
    }
}
