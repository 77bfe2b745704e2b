import LedgerCore

/// Reads TAP (Test Anything Protocol, versions 12, 13 and 14) one line at a time.
///
/// **Tests.** Every test point is a test, except the point that closes a subtest which had
/// test points of its own: that subtest is a suite. A subtest's point that failed while none of
/// its tests did (its plan was not met, its code threw outside any test) is recorded as a test
/// too, so the failure is not lost. The test id is `<suite>/<description>`, where the suite is
/// the path of subtest names, outermost first, joined by ` / ` (`outer / inner`), or `tap` at the
/// top level; after a `prove -v` file header (`t/basic.t .. `) the file heads the path. A test
/// without description is called `test <number>`; the second test of the same suite and name
/// gets ` (2)` after its id, and so on. A subtest's name comes from `# Subtest: name` (at the
/// parent's or the child's indentation), else from the test point that closes it; the events of
/// an unnamed subtest's tests wait for that point. A buffered subtest (`ok 1 - name {`, its tests
/// indented below, then `}`) is read as the streamed one it stands for: its point after its tests.
///
/// **Outcomes.** `ok` passed, `not ok` failed (one issue: YAML `message` or node:test's `error`,
/// else the `#` comment lines after it, else the line itself; its place from YAML `at`, the
/// stack, `location` or the comments), `# SKIP` skipped, `not ok … # TODO` expected failure,
/// `ok … # TODO` passed. `test.end` carries the skip or TODO reason, or a failure's stack.
///
/// **Time.** With arrival times, a test ends when its line arrived and lasts what the output says
/// (YAML `duration_ms`, else `# time=`), else the time since the previous test point (or the run's
/// start). Without, it lasts what the output says, else 0, and starts where the one before ended.
///
/// **Ends.** A test's events go out once its diagnostics are over: on the next line that is not
/// YAML or a comment, or at the end. `Bail out!` stops the reading, and the run gets no `run.end`,
/// so it shows as interrupted. Otherwise the run ends `failed` when a test failed, the plan was
/// missing or not met; ``notes`` says why. Lines it does not know are ignored; an input with no
/// TAP at all is an error.
public struct TAPParser: StreamingParser, Sendable {
    /// What the output is called in errors.
    public static var outputName: String { "TAP text output" }

    /// The run's `source`: `tap`.
    public var source: String { "tap" }

    /// What was odd about the stream, each with its line: a missing or unmet plan, a YAML block
    /// without its `...`, a bail-out, a subtest never closed. The run's data is in the events.
    public internal(set) var notes: [String] = []

    let startedAt: Double
    var lineNumber = 0
    var sawTAP = false
    var bailedOut = false
    var runFailed = false
    /// The document (level 0) and the subtests open inside it, one per level.
    var frames: [TAPFrame]
    var nextFrameID = 1
    /// The names of subtests, by frame id, as they become known.
    var frameNames: [Int: String] = [:]
    var announcement: TAPSubtestAnnouncement?
    var pending: TAPPendingPoint?
    var yaml: TAPYAMLBlock?
    /// Finished tests waiting for the name of a subtest they are in, in order.
    var waiting: [TAPFinishedTest] = []
    var ids = UniqueTestIDs()
    /// Without arrival times: where the next test starts.
    var clock: Double
    /// When the last test point arrived.
    var lastPointAt: Double?
    /// Buffered subtests open (`ok 1 - name {` … `}`), innermost last: their points wait for the `}`.
    var buffered: [TAPBufferedSubtest] = []
    /// The latest arrival time seen.
    var lastArrival: Double?

    /// Creates a parser for a run that started at `startedAt` (seconds since 1970).
    /// - Parameter startedAt: the run's start; without arrival times, the first test starts then.
    public init(startedAt: Double) {
        self.startedAt = startedAt
        clock = startedAt
        frames = [TAPFrame(id: 0, level: 0, line: 0)]
    }

    /// Reads one line, without its line break, that arrived at `at` (`nil` when reading a file).
    /// - Parameters:
    ///   - line: one line of TAP output, without its line break.
    ///   - at: when it arrived, in seconds since 1970; `nil` when reading a file.
    /// - Returns: the events of the tests this line completes.
    /// - Throws: nothing: lines that are not TAP are skipped, and ``finish(at:)`` tells when none was.
    public mutating func consume(_ line: Substring, at: Double?) throws -> [LedgerEvent] {
        guard !bailedOut else { return [] }
        lineNumber += 1
        if let at { lastArrival = max(lastArrival ?? at, at) }
        if continueYAML(line) { return [] }
        let indentation = TAPText.indentation(of: line)
        var events: [LedgerEvent] = []
        while let parent = buffered.last, indentation <= parent.indentation,
            !TAPText.trimmed(line.dropFirst(indentation)).isEmpty
        {
            buffered.removeLast()
            if indentation == parent.indentation, TAPText.trimmed(line.dropFirst(indentation)) == "}" {
                return try events + read(Substring(parent.point), at: at)
            }
            events += try read(Substring(parent.line), at: at)
        }
        if let opened = TAPBufferedSubtest(opening: line, indentation: indentation) {
            buffered.append(opened)
            return events
        }
        return try events + read(line, at: at)
    }

    /// Reads one line as the stream has it, a buffered subtest's point after its tests.
    private mutating func read(_ line: Substring, at: Double?) throws -> [LedgerEvent] {
        if bailedOut { return [] }
        let indentation = TAPText.indentation(of: line)
        let content = line.dropFirst(indentation)
        if let point = pending, point.yaml.isEmpty, point.comments.isEmpty, indentation > point.indentation,
            TAPText.trimmed(content) == "---" || content.hasPrefix("--- ")
        {
            yaml = TAPYAMLBlock(indentation: indentation, line: lineNumber)
            return []
        }
        switch TAPLine(content, atTop: indentation == 0) {
        case .blank, .other, .pragma:
            return []
        case .comment(let text):
            pending?.addComment(text)
            return []
        case .subtest(let name):
            completePending()
            subtest(named: name, level: indentation / 4)
        case .testPoint(let point):
            completePending()
            sawTAP = true
            testPoint(point, text: String(TAPText.trimmed(content)), indentation: indentation, at: at)
        case .plan(let plan):
            completePending()
            sawTAP = true
            self.plan(plan, level: indentation / 4)
        case .version(let version):
            completePending()
            if indentation == 0 { self.version(version) }
        case .bailOut(let reason):
            completePending()
            bailOut(reason)
            return flush(naming: true)
        case .proveHeader(let file):
            guard frames.count == 1 else { return [] }
            completePending()
            startDocument(file)
        }
        return flush(naming: false)
    }

    /// The stream ended at `at` (`nil` when reading a file): closes what is open.
    /// - Parameter at: when the stream ended, in seconds since 1970; `nil` when reading a file.
    /// - Returns: the last tests' events, then `run.end` unless the stream bailed out.
    /// - Throws: ``LedgerInputError`` when no line of the input was TAP.
    public mutating func finish(at: Double?) throws -> [LedgerEvent] {
        guard !bailedOut else { return [] }
        if let block = yaml {
            note(line: block.line, "the YAML block has no `...` before the end of the stream; kept what was read")
            closeYAML()
        }
        completePending()
        closeSubtests(deeperThan: 0)
        finishDocument()
        var events = flush(naming: true)
        guard sawTAP else {
            throw LedgerInputError(
                source: "TAP input", problem: "no TAP found: no version line, plan or test point",
                fix: "check that the input is TAP output (`ok 1 - …`, `1..N`)")
        }
        let end = at ?? max(lastArrival ?? clock, clock)
        events.append(.runEnd(LedgerEvent.RunEnd(at: end, outcome: runFailed ? .failed : .passed)))
        return events
    }

    /// Adds a note about line `line`.
    mutating func note(line: Int, _ text: String) {
        notes.append("line \(line): \(text)")
    }
}
