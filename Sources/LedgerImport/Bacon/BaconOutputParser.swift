import LedgerCore

/// Reads the text Bacon prints (chneukirchen Bacon 1.2, RubyMotion's `rake spec`, MacBacon) one
/// line at a time: SpecDox (`-s`, the default), Knock (`-k`) and the Test::Unit style (`-q`,
/// RubyMotion's `fast` and `colorized`). Bacon's TAP (`-p`) is ``TAPParser``'s.
///
/// **Tests.** SpecDox: every `  - requirement` line is a test; contexts nest by two spaces of
/// indentation. The id is `<context path>/<requirement>`, the context path being the open
/// contexts' names joined by a space (`Cart with one book/counts one item`), and the suite is
/// the context path. DESIGN.md's Bacon id also names the spec file; SpecDox output does not,
/// so the file is left out on purpose: the TestLedger output module
/// (`Formatters/bacon/testledger.rb`) writes the same ids, and the file in the `file` field, so
/// a spec recorded both ways is one test. Knock prints no contexts: its id is the requirement
/// alone, which joins the others' only for specs outside any context. A repeated id within a
/// run gets ` #2`, ` #3`… (the output module does the same). The Test::Unit style prints one
/// character per spec and names only the specs that did not pass, in their ErrorLog entries
/// (`…: <context> - <description>`, the innermost context only): those are recorded; a test per
/// passing character would have an id that changes when a spec is added, so passes are not.
/// ``summary`` keeps Bacon's counts and ``notes`` says how many were recorded.
///
/// **Outcomes.** A tag (`[FAILED]`, `[ERROR: NameError]`, `[MISSING]`, RubyMotion's
/// `[FAILED - message]`) makes the outcome: see ``BaconVerdict``; an empty spec (`MISSING`) is
/// skipped with an issue of kind `missing`. A spec that did not pass waits for its ErrorLog
/// entry (`Class: message`, then tab-indented frames, the first ending `: <context> -
/// <description>`), which gives its issue's message and the first frame's file and line; its
/// `issue` and `test.end` go out then, or at the summary (or the end) without them.
///
/// **Retries.** The TestLedger output module with `TESTLEDGER_TEST_RETRIES=N` runs a failing spec
/// again and tags each attempt that runs again `[FAILED, retrying K/N]` (RubyMotion:
/// `[FAILED - message, retrying K/N]`; see ``BaconRetryTag``); the next line of the same
/// requirement in the same context is attempt K + 1 of the same test, the last attempt's
/// outcome being the spec's. An attempt that ran again has no ErrorLog entry (the module takes it
/// out, and out of the summary's counts, which count specs): its tag is its issue's message.
/// Since a requirement may be named like a tagged one, a first `retrying 1/N` line is read as a
/// retry only once the line after it is the next attempt; until then its events wait, and
/// otherwise it is read as any other line.
///
/// **Time.** With arrival times, a spec lasts from the previous line's arrival to its own
/// (SpecDox prints a spec's line when it ends, and the line before when the one before ended or
/// its context began). Without, every spec lasts 0 and everything happens at the run's start.
///
/// **Ends.** The summary line ends the run: `run.end`, `failed` when it counts failures or
/// errors, and nothing after it is read. Output without one was cut short: no `run.end`, so the
/// run shows as interrupted. Knock prints no summary at all: its run ends with the output,
/// `failed` when a spec failed or erred. Lines it does not know (the specs' own output) are
/// skipped; an input in which nothing was Bacon's is an error.
public struct BaconOutputParser: StreamingParser, Sendable {
    /// Bacon's output formats this parser reads.
    public enum Style: String, Sendable {
        /// `-s`, the default: contexts and `  - requirement` lines.
        case specDox = "spec_dox"
        /// `-q` (and RubyMotion's `fast`, `colorized`): a character per spec.
        case testUnit = "test_unit"
        /// `-k`: `ok - requirement` / `not ok - requirement: ERROR`.
        case knock
    }

    /// A line longer than this (bytes) cannot be Bacon's and is skipped.
    public static let maximumLineLength = 1 << 20

    /// What the output is called in errors.
    public static var outputName: String { "Bacon's text output" }

    /// The run's `source`: `bacon`.
    public var source: String { "bacon" }
    /// The format seen so far; `nil` before anything was recognised.
    public internal(set) var style: Style?
    /// The totals line, once read.
    public internal(set) var summary: BaconSummary?
    /// What was odd about the output, each naming its line: a summary whose count differs from
    /// the specs seen, a Test::Unit run recorded without its tests, a missing summary.
    public internal(set) var notes: [String] = []

    let startedAt: Double
    var lineNumber = 0
    var previousArrival: Double?
    var lastArrival: Double?
    /// The names of the open SpecDox contexts, outermost first.
    var contexts: [String] = []
    /// Lines not yet understood: context names if a spec follows, an error message if a
    /// backtrace does. `afterBlank`: the line came first or after a blank line, as a top-level
    /// context's name does.
    var pendingLines: [(indentation: Int, text: String, afterBlank: Bool)] = []
    var previousWasBlank = true
    /// SpecDox specs that did not pass, in order, waiting for their ErrorLog entries.
    var held: [BaconHeldSpec] = []
    /// The spec whose last line said it runs again (`[FAILED, retrying 1/2]`), waiting for the
    /// line of its next attempt.
    var retry: BaconRetry?
    /// The Knock spec that did not pass, reading its `# ` lines.
    var knockSpec: BaconHeldSpec?
    var entry: ErrorLogEntry?
    var ids: [String: Int] = [:]
    var specLines = 0
    /// Specs of the Test::Unit style named by their ErrorLog entries.
    var namedSpecs = 0
    var recognised = false
    var sawText = false
    var ended = false
    var knockFailed = false
    var timing: Double?

    /// The ErrorLog entry being read: its message lines, and whether its first frame was seen.
    struct ErrorLogEntry: Sendable {
        var message: [String]
        var sawFrame = false
    }

    /// Creates a parser for a run that started at `startedAt` (seconds since 1970).
    /// - Parameter startedAt: the run's start; without arrival times, every spec happens then.
    public init(startedAt: Double) {
        self.startedAt = startedAt
    }

    /// Reads one line, without its line break, that arrived at `at` (`nil` when reading a file).
    /// - Parameters:
    ///   - line: one line of Bacon's output, without its line break.
    ///   - at: when it arrived, in seconds since 1970; `nil` when reading a file.
    /// - Returns: the events of the specs this line completes.
    /// - Throws: nothing: lines that are not Bacon's are skipped, and ``finish(at:)`` tells when none
    ///   was.
    public mutating func consume(_ line: Substring, at: Double?) throws -> [LedgerEvent] {
        guard !ended else { return [] }
        lineNumber += 1
        let since = previousArrival
        if let at {
            previousArrival = at
            lastArrival = max(lastArrival ?? at, at)
        }
        guard line.utf8.count <= Self.maximumLineLength else {
            note("a line longer than \(Self.maximumLineLength >> 20) MiB was skipped")
            return []
        }
        var text = BaconText.withoutEscapes(line)
        if text.hasSuffix("\r") { text = text.dropLast() }
        let kind = BaconLine(text)
        var events: [LedgerEvent] = []
        if case .knockComment = kind, knockSpec != nil {
        } else if let spec = knockSpec {
            events += spec.events
            knockSpec = nil
        }
        events += read(kind, text: text, time: Time(at: at, since: since, fallback: startedAt))
        previousWasBlank = kind == .blank
        return events
    }

    /// The output ended at `at` (`nil` when reading a file): the specs still waiting go out.
    /// - Parameter at: when the output ended, in seconds since 1970; `nil` when reading a file.
    /// - Returns: their events; `run.end` too for Knock, which has no summary.
    /// - Throws: ``LedgerInputError`` when the input had text but no line of it was Bacon's; an input
    ///   of blank lines only is no error.
    public mutating func finish(at: Double?) throws -> [LedgerEvent] {
        guard !ended else { return [] }
        ended = true
        var events = releaseAll()
        guard recognised else {
            guard !sawText else {
                throw LedgerInputError(
                    source: "Bacon output", problem: "no Bacon output found: no spec, Knock or summary line",
                    fix: "check that the input is what `bacon -s`, `-q` or `-k` printed")
            }
            return events
        }
        if style == .knock {
            let end = at ?? lastArrival ?? startedAt
            events.append(.runEnd(LedgerEvent.RunEnd(at: end, outcome: knockFailed ? .failed : .passed)))
        } else {
            note("the output ends before Bacon's summary: the run was cut short")
        }
        return events
    }

    /// When a line arrived and how long the spec it ends took.
    struct Time {
        var end: Double
        var duration: Double

        init(at: Double?, since: Double?, fallback: Double) {
            end = at ?? fallback
            duration = at.map { max(0, $0 - (since ?? $0)) } ?? 0
        }
    }

    mutating func read(_ kind: BaconLine, text: Substring, time: Time) -> [LedgerEvent] {
        switch kind {
        case .blank:
            pendingLines.removeAll()
            entry = nil
        case .spec(let line) where style != .knock:
            return spec(line, time: time)
        case .knock(let description, let verdict) where style != .specDox:
            return knock(description: description, verdict: verdict, time: time)
        case .knockComment(let comment) where knockSpec != nil:
            readKnockComment(comment)
        case .frame(let frame):
            sawText = true
            return readFrame(frame)
        case .summary(let summary, let testUnit):
            return end(summary, testUnit: testUnit, time: time)
        case .timing(let seconds):
            recognised = true
            timing = seconds
            style = style ?? .testUnit
            pendingLines.removeAll()
        default:
            sawText = true
            keep(text)
        }
        return []
    }

    /// Keeps a line not yet understood; only the latest few hundred matter.
    mutating func keep(_ line: Substring) {
        if pendingLines.count >= 256 { pendingLines.removeFirst() }
        let indentation = BaconText.indentation(of: line)
        pendingLines.append((indentation, String(line), previousWasBlank))
    }

    mutating func note(_ text: String) {
        notes.append("line \(lineNumber): \(text)")
    }
}
