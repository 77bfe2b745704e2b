import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Runs an importer the way the TAP, RSpec and xcresult tests do.
extension ImportedRun {
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
    ) throws -> ImportedRun {
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
    ) throws -> ImportedRun {
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
    ) throws -> ImportedRun {
        var sink = CollectingSink()
        try importer.importResults(
            from: input, context: context(sourceName: sourceName, metadata: metadata), into: &sink)
        #expect(sink.records.allSatisfy { $0.run == runID })
        return ImportedRun(records: sink.records, warnings: sink.warnings)
    }

    /// Whether `value` is within `tolerance` (a microsecond) of `expected`.
    static func close(_ value: Double?, _ expected: Double, within tolerance: Double = 1e-6) -> Bool {
        guard let value else { return false }
        return abs(value - expected) < tolerance
    }
}
