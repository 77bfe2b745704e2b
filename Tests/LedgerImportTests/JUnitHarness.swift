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

    static func context(metadata: RunMetadata = RunMetadata(project: "Demo"), repeats: Repeats? = nil)
        -> ImportContext
    {
        ImportContext(
            runID: runID, sourceName: sourceName, metadata: metadata, fallbackStart: fallbackStart, repeats: repeats)
    }

    /// Imports `xml` from memory and from a temporary file.
    static func run(_ xml: String, metadata: RunMetadata = RunMetadata(project: "Demo"), repeats: Repeats? = nil)
        throws -> ImportedRun
    {
        try run(data: Data(xml.utf8), metadata: metadata, repeats: repeats)
    }

    /// Imports `data` from memory and from a temporary file.
    static func run(data: Data, metadata: RunMetadata = RunMetadata(project: "Demo"), repeats: Repeats? = nil)
        throws -> ImportedRun
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent(sourceName)
        try data.write(to: file)
        return try run(file: file, metadata: metadata, repeats: repeats)
    }

    /// Imports the file at `url` as `.file` and, read into memory, as `.data`.
    static func run(file url: URL, metadata: RunMetadata = RunMetadata(project: "Demo"), repeats: Repeats? = nil)
        throws -> ImportedRun
    {
        let fromFile = try imported(.file(url), metadata: metadata, repeats: repeats)
        let fromData = try imported(.data(Data(contentsOf: url)), metadata: metadata, repeats: repeats)
        #expect(fromFile.records == fromData.records, ".file and .data inputs disagree")
        #expect(fromFile.warnings == fromData.warnings, ".file and .data inputs warn differently")
        return fromFile
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
        try imported(input, metadata: metadata).records
    }

    static func imported(
        _ input: LineReader.Input, metadata: RunMetadata = RunMetadata(project: "Demo"), repeats: Repeats? = nil
    ) throws -> ImportedRun {
        var sink = CollectingSink()
        try JUnitImporter().importResults(
            from: input, context: context(metadata: metadata, repeats: repeats), into: &sink)
        return ImportedRun(records: sink.records, warnings: sink.warnings)
    }
}

extension JUnitHarness {
    /// Whether `value` is within a microsecond of `expected`: times summed from decimal text.
    static func close(_ value: Double?, _ expected: Double) -> Bool {
        guard let value else { return false }
        return abs(value - expected) < 1e-6
    }
}
