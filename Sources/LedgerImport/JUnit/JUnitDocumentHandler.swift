import Foundation
import LedgerCore

/// Builds each `<testcase>` as its elements arrive and sends its events to the sink as soon as
/// it closes: only the open testcase is ever held, whatever the document's size.
final class JUnitDocumentHandler<Sink: EventSink>: JUnitElementHandler {
    private(set) var sink: Sink
    private let runID: String
    private var emitter: JUnitEventEmitter
    private var suites: [JUnitSuiteFrame] = []
    /// The clock outside any suite: where the next top-level suite without a timestamp starts.
    private var outerClock: Double
    private var testcase: JUnitTestcase?
    /// The number of ancestors of the open testcase.
    private var testcaseDepth = 0
    /// The open `<failure>`, `<error>`, `<skipped>` or retry element of the testcase.
    private var result: JUnitResultElement?
    /// pytest's xunit1 `line` attribute counts from 0 (its `report.location`).
    private var linesStartAtZero = false

    init(sink: Sink, runID: String, emitter: JUnitEventEmitter) {
        self.sink = sink
        self.runID = runID
        self.emitter = emitter
        self.outerClock = emitter.runStart.at
    }

    /// Sends `run.start`.
    func begin() throws { try send([emitter.start]) }

    /// Sends `run.end`.
    func end() throws { try send([emitter.end]) }

    func didStart(_ element: String, attributes: [String: String], path: [String]) throws
        -> JUnitTextBuffer.Keep?
    {
        if path.isEmpty {
            let name = attributes["name"]
            linesStartAtZero =
                (element == "testsuites" && name == "pytest tests")
                || (element == "testsuite" && name == "pytest")
        }
        guard testcase != nil else {
            if element == "testsuite" {
                let stamp = attributes["timestamp"].flatMap(JUnitTimestamp.parse)
                suites.append(
                    JUnitSuiteFrame(
                        name: JUnitText.nonBlank(attributes["name"]),
                        file: JUnitText.nonBlank(attributes["file"]) ?? suites.last?.file,
                        clock: stamp ?? clock))
            } else if element == "testcase" {
                testcase = JUnitTestcase(attributes: attributes)
                testcaseDepth = path.count
            }
            return nil
        }
        switch (path.count - testcaseDepth, element) {
        case (1, _) where JUnitResultElement.names.contains(element):
            result = JUnitResultElement(element: element, attributes: attributes)
            return result?.isRetry == true ? nil : .head(JUnitTextBuffer.failureTextLimit)
        case (1, "system-out"), (1, "system-err"), (2, "system-out"), (2, "system-err"):
            return .tail(JUnitOutput.limit)
        case (2, "stackTrace"):
            return .head(JUnitTextBuffer.failureTextLimit)
        case (2, "property") where path.last == "properties":
            if let name = attributes["name"] {
                testcase?.addProperty(name: name, value: attributes["value"] ?? "")
            }
            return nil
        default:
            return nil
        }
    }

    func didEnd(_ element: String, text: String, path: [String]) throws {
        guard let open = testcase else {
            if element == "testsuite", let suite = suites.popLast() {
                clock = max(clock, suite.clock)
            }
            return
        }
        switch (path.count - testcaseDepth, element) {
        case (0, "testcase"):
            testcase = nil
            try finish(open)
        case (1, "system-out"), (1, "system-err"):
            testcase?.output.set(element, text)
        case (1, _) where element == result?.element:
            if var done = result {
                if !done.isRetry { done.text = text }
                testcase?.add(done)
            }
            result = nil
        case (2, "stackTrace"):
            result?.text = text
        case (2, "system-out"), (2, "system-err"):
            result?.output.set(element, text)
        default:
            break
        }
    }

    /// The clock of the innermost open suite, or the outer clock.
    private var clock: Double {
        get { suites.last?.clock ?? outerClock }
        set {
            if suites.isEmpty {
                outerClock = newValue
            } else {
                suites[suites.count - 1].clock = newValue
            }
        }
    }

    private func finish(_ testcase: JUnitTestcase) throws {
        let attributes = testcase.attributes
        let suite = suites.last
        let classname = JUnitText.nonBlank(attributes["classname"]) ?? suite?.name ?? "(unknown)"
        let name = JUnitText.nonBlank(attributes["name"]) ?? "(unnamed)"
        var line = attributes["line"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if linesStartAtZero, let zeroBased = line { line = zeroBased + 1 }
        let tags = testcase.tags
        let test = LedgerEvent.TestStart(
            at: 0, test: "\(classname)/\(name)", suite: classname, name: name,
            file: JUnitText.nonBlank(attributes["file"]) ?? suite?.file,
            line: line.flatMap { $0 > 0 ? $0 : nil }, tags: tags.isEmpty ? nil : tags)
        let attempts = JUnitAttemptPlanner.attempts(of: testcase, classname: classname, name: name)
        let start = attributes["timestamp"].flatMap(JUnitTimestamp.parse) ?? clock
        let (events, end) = emitter.events(for: test, attempts: attempts, startingAt: start)
        clock = max(clock, end)
        try send(events)
    }

    private func send(_ events: [LedgerEvent]) throws {
        for event in events {
            try sink.consume(LedgerRecord(run: runID, event: event))
        }
    }
}
