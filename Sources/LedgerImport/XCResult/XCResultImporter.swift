import Foundation
import LedgerCore

/// Imports the JSON of `xcrun xcresulttool get test-results tests --path R.xcresult` (Xcode 16
/// and 26; XCTest and Swift Testing) into the Ledger event stream.
///
/// Each `Test Case` is a test, and each of its `Arguments` is a test of its own (see
/// ``XCResultTest`` for the ids: `<bundle>.<identifier path>/<function>`, as Xcode spells the
/// function, `()` included). Each `Repetition` (a retry on failure, or an iteration) is an
/// attempt, so a test that failed and then passed on retry is flaky in the run. Results map to
/// passed, failed, skipped and expected failure; each `Failure Message` of a failed attempt is an
/// issue, with the file and line it starts with, and a skipped attempt's message is its reason.
/// Durations come from `durationInSeconds`, else the localized `duration` (`0,012s`, `1m 5s`).
/// Tags become tags, and a `unit`, `integration` or `ui` tag the layer; tests in a UI test bundle
/// are `ui` otherwise. The devices (`iPhone 16 Pro (18.2)`) are the run's configuration. The
/// document has no timestamps: the run starts at the context's `fallbackStart` and the attempts
/// follow one another.
public struct XCResultImporter: ResultImporter {
    /// The `source` of the runs it records.
    public static let source = "xcresult"

    /// Creates the importer; it has no options.
    public init() {}

    /// Reads the `xcresulttool` JSON `input` and emits its run into `sink`.
    /// - Parameters:
    ///   - input: the JSON, a file or bytes.
    ///   - context: the run id, the source name errors name, the metadata and the fallback start.
    ///   - sink: where the events go, in order.
    /// - Throws: ``LedgerInputError`` for input that is not `xcresulttool get test-results
    ///   tests` JSON, or larger than 512 MiB; whatever `sink` throws.
    public func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws {
        let reader = JSONReportReader(
            sourceName: context.sourceName, kind: "xcresulttool test results",
            fix: "write it with `xcrun xcresulttool get test-results tests --path R.xcresult`")
        let document = try reader.decode(XCResultDocument.self, from: input)
        let run = context.runID
        let devices = document.devices ?? []
        let configuration = devices.isEmpty ? nil : devices.map(Self.describe).joined(separator: ", ")
        let start = context.metadata.runStart(
            at: context.fallbackStart, source: Self.source, configuration: configuration)
        try sink.consume(LedgerRecord(run: run, event: .runStart(start)))
        if devices.count > 1 || (document.testPlanConfigurations?.count ?? 0) > 1 {
            sink.warn(
                "\(context.sourceName): \(devices.count) devices and \(document.testPlanConfigurations?.count ?? 0) "
                    + "configurations in one run; a test run on several is recorded as attempts of one test")
        }
        var clock = context.fallbackStart
        var attempts: [String: Int] = [:]
        var failing: [String: Bool] = [:]
        try XCResultTree.walk(document.testNodes) { node, place in
            for test in XCResultTest.tests(of: node, in: place) {
                for attempt in test.attempts {
                    let number = attempts[test.start.test, default: 0] + 1
                    attempts[test.start.test] = number
                    failing[test.start.test] = attempt.outcome.isFailure
                    for event in Self.events(of: attempt, number: number, test: test.start, at: clock) {
                        try sink.consume(LedgerRecord(run: run, event: event))
                    }
                    clock += attempt.duration
                }
            }
        }
        let outcome: RunOutcome = failing.values.contains(true) ? .failed : .passed
        try sink.consume(LedgerRecord(run: run, event: .runEnd(LedgerEvent.RunEnd(at: clock, outcome: outcome))))
    }

    /// `test.start`, the issues and `test.end` of attempt `number` of `test`, started at `start`.
    private static func events(
        of attempt: XCResultAttempt, number: Int, test: LedgerEvent.TestStart, at start: Double
    ) -> [LedgerEvent] {
        var begin = test
        begin.at = start
        begin.attempt = number
        let issues = attempt.issues.map { issue in
            LedgerEvent.issue(
                LedgerEvent.Issue(
                    at: start, test: test.test, attempt: number, message: issue.text, file: issue.file,
                    line: issue.line, kind: issue.kind))
        }
        let end = LedgerEvent.TestEnd(
            at: start + attempt.duration, test: test.test, attempt: number, outcome: attempt.outcome,
            duration: attempt.duration, message: attempt.message)
        return [.testStart(begin)] + issues + [.testEnd(end)]
    }

    /// `iPhone 16 Pro (18.2)`: the model (else the device's name) and the OS version.
    private static func describe(_ device: XCResultDocument.Device) -> String {
        let model = device.modelName ?? device.deviceName ?? "device"
        return device.osVersion.map { "\(model) (\($0))" } ?? model
    }
}
