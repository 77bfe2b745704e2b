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
/// are `ui` otherwise. The devices (`iPhone 16 Pro (18.2)`), and the test plan's configurations
/// when there are several (`iPhone 16 Pro (18.2) · English, German`), are the run's configuration. The
/// document has no timestamps: the run starts at the context's `fallbackStart` and the attempts
/// follow one another. Read from a bundle, each test's activities (``XCResultBundleDetails``)
/// become its attempts' activities and attachments, and their start times the attempts' and the
/// run's (``XCResultActivityEvents``).
public struct XCResultImporter: ResultImporter {
    /// The `source` of the runs it records.
    public static let source = "xcresult"

    /// The bundle's activities and attachments, when the document was read from one.
    public var bundle: XCResultBundleDetails?
    /// Whether the run was cut short (`xcodebuild` interrupted): it ends `interrupted`.
    public var interrupted: Bool

    /// Creates the importer.
    /// - Parameters:
    ///   - bundle: the bundle's activities and attachments, when there is a bundle.
    ///   - interrupted: whether the run was cut short.
    public init(bundle: XCResultBundleDetails? = nil, interrupted: Bool = false) {
        self.bundle = bundle
        self.interrupted = interrupted
    }

    /// The test ids `get test-results activities --test-id` takes: each test case's
    /// `nodeIdentifier`, in document order, once each.
    /// - Throws: ``LedgerInputError`` for input that is not `get test-results tests` JSON.
    public static func testIdentifiers(in input: LineReader.Input, sourceName: String) throws -> [String] {
        let document = try reader(sourceName).decode(XCResultDocument.self, from: input)
        var identifiers: [String] = []
        var seen = Set<String>()
        XCResultTree.walk(document.testNodes) { node, _ in
            if let identifier = node.nodeIdentifier, seen.insert(identifier).inserted { identifiers.append(identifier) }
        }
        return identifiers
    }

    private static func reader(_ sourceName: String) -> JSONReportReader {
        JSONReportReader(
            sourceName: sourceName, kind: "xcresulttool test results",
            fix: "write it with `xcrun xcresulttool get test-results tests --path R.xcresult`")
    }

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
        let document = try Self.reader(context.sourceName).decode(XCResultDocument.self, from: input)
        let activities = try decodedActivities(sourceName: context.sourceName)
        let run = context.runID
        let devices = document.devices ?? []
        // One test plan configuration is the run's setting; several are named, since the run mixes them.
        let configurations = (document.testPlanConfigurations ?? []).compactMap(\.configurationName)
        let plans = configurations.count > 1 ? configurations : []
        let named = [devices.map(Self.describe).joined(separator: ", "), plans.joined(separator: ", ")]
            .filter { !$0.isEmpty }
        let configuration = named.isEmpty ? nil : named.joined(separator: " · ")
        let firstActivity = activities.values.flatMap { $0.testRuns.flatMap { $0.activities ?? [] } }
            .compactMap(\.earliestStart).min()
        let start = context.metadata.runStart(
            at: firstActivity ?? context.fallbackStart, source: Self.source, configuration: configuration)
        try sink.consume(LedgerRecord(run: run, event: .runStart(start)))
        if devices.count > 1 || (document.testPlanConfigurations?.count ?? 0) > 1 {
            sink.warn(
                "\(context.sourceName): \(devices.count) devices and \(document.testPlanConfigurations?.count ?? 0) "
                    + "configurations in one run; a test run on several is recorded as attempts of one test")
        }
        var clock = start.at
        var attempts: [String: Int] = [:]
        var failing: [String: Bool] = [:]
        var activityNumber = 0
        try XCResultTree.walk(document.testNodes) { node, place in
            for var test in XCResultTest.tests(of: node, in: place) {
                let runs = Self.runs(of: test, in: activities)
                if let layer = XCResultActivityEvents.declaredLayer(runs) { test.start.layer = layer }
                for (index, attempt) in test.attempts.enumerated() {
                    let number = attempts[test.start.test, default: 0] + 1
                    attempts[test.start.test] = number
                    failing[test.start.test] = attempt.outcome.isFailure
                    let steps = index < runs.count ? runs[index].activities ?? [] : []
                    let begin = steps.compactMap(\.earliestStart).min() ?? clock
                    var events = Self.events(of: attempt, number: number, test: test.start, at: begin)
                    let inner = XCResultActivityEvents.events(
                        steps, test: test.start.test, attempt: number, start: begin, end: begin + attempt.duration,
                        nextID: &activityNumber, attachments: bundle?.attachments ?? [:])
                    events.insert(contentsOf: inner, at: events.count - 1)
                    for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
                    clock = max(clock, begin + attempt.duration)
                }
            }
        }
        let outcome: RunOutcome =
            interrupted ? .interrupted : failing.values.contains(true) ? .failed : .passed
        try sink.consume(LedgerRecord(run: run, event: .runEnd(LedgerEvent.RunEnd(at: clock, outcome: outcome))))
    }

    /// The bundle's activities, decoded, by test id.
    private func decodedActivities(sourceName: String) throws -> [String: XCResultActivities] {
        var decoded: [String: XCResultActivities] = [:]
        for (identifier, data) in bundle?.activities ?? [:] {
            do {
                decoded[identifier] = try JSONDecoder().decode(XCResultActivities.self, from: data)
            } catch {
                throw LedgerInputError(
                    source: sourceName, problem: "the activities of \(identifier) are not xcresulttool's: \(error)",
                    fix: "check `xcrun xcresulttool get test-results activities --test-id '\(identifier)'`")
            }
        }
        return decoded
    }

    /// The activity runs of `test`, in order: those of its argument when it is one.
    private static func runs(of test: XCResultTest, in activities: [String: XCResultActivities])
        -> [XCResultActivities.Run]
    {
        guard let identifier = test.identifier, let runs = activities[identifier]?.testRuns else { return [] }
        guard let argument = test.argument else { return runs }
        let matching = runs.filter { $0.argumentText == argument }
        return matching.isEmpty ? [] : matching
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
