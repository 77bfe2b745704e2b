import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// What one import emitted, with accessors for the checks the TAP, RSpec and xcresult tests make.
struct ImporterRun {
    var records: [LedgerRecord]
    var warnings: [String] = []

    static let runID = "7A9F0C2B-0000-4000-8000-00000000BEEF"
    /// The `fallbackStart` the tests give: 2023-11-14T22:13:20Z.
    static let start = 1_700_000_000.0

    static func context(sourceName: String = "input", metadata: RunMetadata = RunMetadata(project: "Demo"))
        -> ImportContext
    {
        ImportContext(runID: runID, sourceName: sourceName, metadata: metadata, fallbackStart: start)
    }

    /// Imports `data` with `importer`, from memory and from a temporary file, and checks that
    /// both give the same records and warnings.
    static func importing(
        _ data: Data, with importer: some ResultImporter, sourceName: String = "input",
        metadata: RunMetadata = RunMetadata(project: "Demo")
    ) throws -> ImporterRun {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("input")
        try data.write(to: file)
        let fromData = try records(.data(data), importer, sourceName: sourceName, metadata: metadata)
        let fromFile = try records(.file(file), importer, sourceName: sourceName, metadata: metadata)
        #expect(fromData.records == fromFile.records, ".data and .file inputs disagree")
        #expect(fromData.warnings == fromFile.warnings, ".data and .file inputs warn differently")
        return fromData
    }

    /// Imports the file at `url` with `importer`.
    static func importing(
        file url: URL, with importer: some ResultImporter, metadata: RunMetadata = RunMetadata(project: "Demo")
    ) throws -> ImporterRun {
        try records(.file(url), importer, sourceName: url.lastPathComponent, metadata: metadata)
    }

    /// The error importing `data` throws.
    static func failure(_ data: Data, with importer: some ResultImporter) throws -> LedgerInputError {
        let error = #expect(throws: LedgerInputError.self) {
            try records(.data(data), importer, sourceName: "input", metadata: RunMetadata(project: "Demo"))
        }
        return try #require(error)
    }

    private static func records(
        _ input: LineReader.Input, _ importer: some ResultImporter, sourceName: String, metadata: RunMetadata
    ) throws -> ImporterRun {
        var sink = CollectingSink()
        try importer.importResults(
            from: input, context: context(sourceName: sourceName, metadata: metadata), into: &sink)
        #expect(sink.records.allSatisfy { $0.run == runID })
        return ImporterRun(records: sink.records, warnings: sink.warnings)
    }

    /// Whether `value` is within `tolerance` (a microsecond) of `expected`.
    static func close(_ value: Double?, _ expected: Double, within tolerance: Double = 1e-6) -> Bool {
        guard let value else { return false }
        return abs(value - expected) < tolerance
    }

    var events: [LedgerEvent] { records.map(\.event) }
    var types: [String] { events.map(\.type) }

    var runStart: LedgerEvent.RunStart? {
        guard case .runStart(let event)? = events.first else { return nil }
        return event
    }

    var runEnd: LedgerEvent.RunEnd? {
        guard case .runEnd(let event)? = events.last else { return nil }
        return event
    }

    var starts: [LedgerEvent.TestStart] {
        events.compactMap { if case .testStart(let event) = $0 { event } else { nil } }
    }

    var ends: [LedgerEvent.TestEnd] {
        events.compactMap { if case .testEnd(let event) = $0 { event } else { nil } }
    }

    var issues: [LedgerEvent.Issue] {
        events.compactMap { if case .issue(let event) = $0 { event } else { nil } }
    }

    /// The distinct test ids, in the order they first appear.
    var testIDs: [String] {
        var seen: Set<String> = []
        return starts.map(\.test).filter { seen.insert($0).inserted }
    }

    func start(_ test: String, attempt: Int = 1) -> LedgerEvent.TestStart? {
        starts.first { $0.test == test && $0.attempt == attempt }
    }

    func end(_ test: String, attempt: Int = 1) -> LedgerEvent.TestEnd? {
        ends.first { $0.test == test && $0.attempt == attempt }
    }

    /// The outcomes of every attempt of `test`, in order.
    func outcomes(_ test: String) -> [Outcome] {
        ends.filter { $0.test == test }.map(\.outcome)
    }

    /// The final outcome of each test id.
    var finalOutcomes: [String: Outcome] {
        Dictionary(ends.map { ($0.test, $0.outcome) }, uniquingKeysWith: { $1 })
    }

    func issues(_ test: String, attempt: Int = 1) -> [LedgerEvent.Issue] {
        issues.filter { $0.test == test && $0.attempt == attempt }
    }

    /// Whether every attempt is `test.start`, its issues, then `test.end`, with nothing between.
    var attemptsAreWellFormed: Bool {
        var open: (String, Int)?
        for event in events {
            switch event {
            case .testStart(let start):
                guard open == nil else { return false }
                open = (start.test, start.attempt)
            case .issue(let issue):
                guard let current = open, current == (issue.test, issue.attempt) else { return false }
            case .testEnd(let end):
                guard let current = open, current == (end.test, end.attempt) else { return false }
                open = nil
            default:
                guard open == nil else { return false }
            }
        }
        return open == nil
    }

    /// Whether times never go backwards within an attempt and durations match them.
    var timesAreConsistent: Bool {
        starts.allSatisfy { start in
            guard let end = end(start.test, attempt: start.attempt) else { return false }
            return end.at >= start.at && abs((end.at - start.at) - end.duration) < 1e-6 && end.duration >= 0
        }
    }
}
