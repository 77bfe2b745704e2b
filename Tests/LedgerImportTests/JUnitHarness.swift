import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerImport

/// Runs the JUnit importer for tests on both kinds of input, `.data` and `.file`, and checks
/// that they give the same records.
enum JUnitHarness {
    static let runID = "5B0C1C1E-0000-4000-8000-0000000000AA"
    /// The `fallbackStart` of the context: 2023-11-14T22:13:20Z.
    static let fallbackStart = 1_700_000_000.0
    static let sourceName = "report.xml"

    static func context(metadata: RunMetadata = RunMetadata(project: "Demo")) -> ImportContext {
        ImportContext(
            runID: runID, sourceName: sourceName, metadata: metadata, fallbackStart: fallbackStart)
    }

    /// Imports `xml` from memory and from a temporary file.
    static func run(_ xml: String, metadata: RunMetadata = RunMetadata(project: "Demo")) throws
        -> ImportedRun
    {
        try run(data: Data(xml.utf8), metadata: metadata)
    }

    /// Imports `data` from memory and from a temporary file.
    static func run(data: Data, metadata: RunMetadata = RunMetadata(project: "Demo")) throws
        -> ImportedRun
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent(sourceName)
        try data.write(to: file)
        return try run(file: file, metadata: metadata)
    }

    /// Imports the file at `url` as `.file` and, read into memory, as `.data`.
    static func run(file url: URL, metadata: RunMetadata = RunMetadata(project: "Demo")) throws
        -> ImportedRun
    {
        let fromFile = try records(.file(url), metadata: metadata)
        let fromData = try records(.data(Data(contentsOf: url)), metadata: metadata)
        #expect(fromFile == fromData, ".file and .data inputs disagree")
        return ImportedRun(records: fromFile)
    }

    /// The error importing `xml` throws, from memory and from a file (they must agree).
    static func failure(_ xml: String) throws -> LedgerInputError {
        try failure(data: Data(xml.utf8))
    }

    /// The error importing `data` throws, from memory and from a file (they must agree).
    static func failure(data: Data) throws -> LedgerInputError {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent(sourceName)
        try data.write(to: file)
        let fromData = #expect(throws: LedgerInputError.self) { try records(.data(data)) }
        let fromFile = #expect(throws: LedgerInputError.self) { try records(.file(file)) }
        #expect(fromData == fromFile, ".file and .data inputs fail differently")
        return try #require(fromData)
    }

    static func records(
        _ input: LineReader.Input, metadata: RunMetadata = RunMetadata(project: "Demo")
    ) throws -> [LedgerRecord] {
        var sink = CollectingSink()
        try JUnitImporter().importResults(
            from: input, context: context(metadata: metadata), into: &sink)
        return sink.records
    }
}

extension JUnitHarness {
    /// Whether `value` is within a microsecond of `expected`: times summed from decimal text.
    static func close(_ value: Double?, _ expected: Double) -> Bool {
        guard let value else { return false }
        return abs(value - expected) < 1e-6
    }
}
