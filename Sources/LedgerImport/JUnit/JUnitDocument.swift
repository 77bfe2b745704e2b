import Foundation
import LedgerCore

/// Builds each `<testcase>` as its elements arrive and sends its events to the sink as soon as
/// it closes: only the open testcase is ever held, whatever the document's size.
///
/// The sink is held as an existential rather than as a generic parameter: the importer is
/// called from other modules, where generic code would run unspecialised, looking up type
/// metadata on every access; this way only the sink's `consume` is a dynamic call.
struct JUnitDocument {
    /// The sink, with every event sent so far.
    private(set) var sink: any EventSink
    private let runID: String
    private var header: JUnitRunHeader
    private var emitter: JUnitEventEmitter
    /// The open elements, outermost first, `nil` for those the import ignores.
    private var open: [JUnitElement?] = []
    private var suites: [JUnitSuiteFrame] = []
    /// The clock outside any suite: where the next top-level suite without a timestamp starts;
    /// `nil` while that is the run's start, not known yet.
    private var outerClock: Double?
    private var testcase: JUnitTestcase?
    /// The number of ancestors of the open testcase.
    private var testcaseDepth = 0
    /// The open `<failure>`, `<error>`, `<skipped>` or retry element of the testcase.
    private var result: JUnitResultElement?
    /// pytest's xunit1 `line` attribute counts from 0 (its `report.location`).
    private var linesStartAtZero = false
    /// The suite property being read whose value is its text (Jenkins accepts that form).
    private var pendingProperty: String?
    /// How a repeated test id is read: as given, else as the testcase or the document's tool says.
    private let repeats: Repeats?
    /// Whether the document is from a tool that writes each retry as another testcase of the same
    /// classname and name (``JUnitRetryWriters``).
    private var writerRepeatsRetries = false
    /// Set when the document is what `swift test --xunit-output` writes.
    private var swiftPMFile: SwiftPMXUnitFile?
    private let sourceName: String

    /// - Parameters:
    ///   - sink: where the events go.
    ///   - context: the run's id, metadata and fallback start.
    ///   - source: the `source` of the run.
    ///   - expectedTests: how many distinct tests the document likely holds.
    init(sink: any EventSink, context: ImportContext, source: String, expectedTests: Int = 0) {
        self.sink = sink
        self.runID = context.runID
        self.header = JUnitRunHeader(
            metadata: context.metadata, fallbackStart: context.fallbackStart, source: source)
        self.emitter = JUnitEventEmitter(runID: context.runID, expectedTests: expectedTests)
        self.repeats = context.repeats
        self.sourceName = context.sourceName
    }

    /// An element opened: `element` is what it is, or `nil` for one the import ignores.
    /// - Returns: how much of the element's text to collect, or `nil` to ignore it.
    /// - Throws: whatever the sink throws.
    mutating func didStart(_ element: JUnitElement?, attributes: [String: String]) throws
        -> JUnitTextBuffer.Keep?
    {
        let ancestors = open.count
        open.append(element)
        guard let element else { return nil }
        if ancestors == 0 {
            let name = attributes["name"]
            linesStartAtZero =
                (element == .testsuites && name == "pytest tests")
                || (element == .testsuite && name == "pytest")
            writerRepeatsRetries = JUnitRetryWriters.opens(root: element, attributes: attributes)
        }
        switch element {
        case .testsuite:
            if ancestors == 1, open[0] == .testsuites, swiftPMFile == nil {
                swiftPMFile = SwiftPMXUnitFile(suiteAttributes: attributes)
            }
            let stamp = attributes["timestamp"].flatMap(JUnitTimestamp.parse)
            if let stamp { header.sawSuite(at: stamp) }
            // A suite inside a testcase is no suite of it.
            guard testcase == nil else { return nil }
            suites.append(
                JUnitSuiteFrame(
                    name: JUnitText.nonBlank(attributes["name"]),
                    file: JUnitText.nonBlank(attributes["file"]) ?? suites.last?.file,
                    clock: stamp ?? clock))
            return nil
        case .property
        where ancestors >= 2 && open[ancestors - 1] == .properties && open[ancestors - 2] == .testsuite:
            return suiteProperty(attributes)
        case .testcase where testcase == nil:
            testcase = JUnitTestcase(attributes: attributes)
            testcaseDepth = ancestors
            return nil
        default:
            break
        }
        guard testcase != nil else { return nil }
        switch (ancestors - testcaseDepth, element) {
        case (1, _) where element.isResult:
            result = JUnitResultElement(element: element, attributes: attributes)
            return result?.isRetry == true ? nil : .head(JUnitTextBuffer.failureTextLimit)
        case (1, .systemOut), (1, .systemErr), (2, .systemOut), (2, .systemErr):
            return .tail(JUnitOutput.limit)
        case (2, .stackTrace):
            return .head(JUnitTextBuffer.failureTextLimit)
        case (2, .property) where open[ancestors - 1] == .properties:
            if let name = attributes["name"] {
                testcase?.addProperty(name: name, value: attributes["value"] ?? "")
            }
            return nil
        default:
            return nil
        }
    }

    /// The innermost open element closed; `text` is what was collected of its text (empty
    /// when ignored).
    /// - Throws: whatever the sink throws.
    mutating func didEnd(text: String) throws {
        guard let last = open.popLast(), let element = last else { return }
        if element == .property, let name = pendingProperty {
            pendingProperty = nil
            header.sawProperty(name, value: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard testcase != nil else {
            if element == .testsuite, let suite = suites.popLast(), let ended = suite.clock {
                clock = max(clock ?? ended, ended)
            }
            return
        }
        switch (open.count - testcaseDepth, element) {
        case (0, .testcase):
            if let closed = testcase.take() { try finish(closed) }
        case (1, .systemOut), (1, .systemErr):
            testcase?.output.set(element, text)
        case (1, _) where element == result?.element:
            if var done = result {
                if !done.isRetry { done.text = text }
                testcase?.add(done)
            }
            result = nil
        case (2, .stackTrace):
            result?.text = text
        case (2, .systemOut), (2, .systemErr):
            result?.output.set(element, text)
        default:
            break
        }
    }

    /// Sends what is left once the document has ended: `run.start` if no test sent it, or
    /// a second one with what was learnt since, then `run.end`.
    mutating func end() throws {
        if let start = header.last() { try send(start) }
        try send(emitter.end(notBefore: header.startedAt))
        if let swiftPMFile { sink.warn("\(sourceName): \(swiftPMFile.warning)") }
        let repeating = "testcase(s) repeat an earlier one's classname and name and are stored as"
        if emitter.retried > 0 {
            let why = repeats == nil ? "the file or the tool that wrote it marks them so" : "--repeats retries"
            sink.warn("\(sourceName): \(emitter.retried) \(repeating) its retries (\(why))")
        }
        if emitter.keptApart.count > 0, let example = emitter.keptApart.example {
            let fix = repeats == nil ? "; if they are retries, ingest the file with --repeats retries" : ""
            sink.warn(
                "\(sourceName): \(emitter.keptApart.count) \(repeating) tests of their own, such as \"\(example)\"\(fix)"
            )
        }
    }

    /// A `<property>` of a suite: trainer's `device` and `Configuration` go into `run.start`.
    private mutating func suiteProperty(_ attributes: [String: String]) -> JUnitTextBuffer.Keep? {
        if attributes["name"].map(JUnitRetryWriters.marks(suiteProperty:)) == true { writerRepeatsRetries = true }
        guard let name = attributes["name"], JUnitRunHeader.keeps(property: name) else { return nil }
        if let value = attributes["value"] {
            header.sawProperty(name, value: value)
            return nil
        }
        pendingProperty = name
        return .head(1024)
    }

    /// The clock of the innermost open suite, or the outer clock.
    private var clock: Double? {
        get { suites.isEmpty ? outerClock : suites[suites.count - 1].clock }
        set {
            if suites.isEmpty {
                outerClock = newValue
            } else {
                suites[suites.count - 1].clock = newValue
            }
        }
    }

    private mutating func finish(_ testcase: JUnitTestcase) throws {
        let suite = suites.last
        let classname = JUnitText.nonBlank(testcase.classname) ?? suite?.name ?? "(unknown)"
        let name = JUnitText.nonBlank(testcase.name) ?? "(unnamed)"
        var line = testcase.line.flatMap { Int($0) ?? Int($0.trimmingCharacters(in: .whitespaces)) }
        if linesStartAtZero, let zeroBased = line { line = zeroBased + 1 }
        let tags = testcase.tags
        var id = ""
        id.reserveCapacity(classname.utf8.count + 1 + name.utf8.count)
        id += classname
        id += "/"
        id += name
        if emitter.hasSeen(id) {
            id = emitter.claim(
                id, retry: repeats.map { $0 == .retries } ?? (testcase.isMarkedRetry || writerRepeatsRetries))
        }
        let test = LedgerEvent.TestStart(
            at: 0, test: id, suite: classname, name: name,
            file: JUnitText.nonBlank(testcase.file) ?? suite?.file,
            line: line.flatMap { $0 > 0 ? $0 : nil }, tags: tags.isEmpty ? nil : tags)
        if !header.isSent { try send(header.first()) }
        // A clock still unknown is the run's start: the earliest timestamp seen so far, or the
        // fallback when none has been.
        let start = testcase.timestamp.flatMap(JUnitTimestamp.parse) ?? clock ?? header.startedAt
        let end: Double
        if testcase.isPlainPass {
            // Most testcases: one passing attempt, nothing to work out.
            let attempt = JUnitAttempt(outcome: .passed, duration: JUnitDuration.parse(testcase.time))
            end = try emitter.emit(test, attempt: attempt, startingAt: start, into: &sink)
        } else {
            let attempts = JUnitAttemptPlanner.attempts(of: testcase, classname: classname, name: name)
            end = try emitter.emit(test, attempts: attempts, startingAt: start, into: &sink)
        }
        clock = max(clock ?? header.startedAt, end)
    }

    private mutating func send(_ event: LedgerEvent) throws {
        try sink.consume(LedgerRecord(run: runID, event: event))
    }
}
