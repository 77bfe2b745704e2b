import Foundation
import LedgerCore

/// A file ready to import: its format, as given or detected, and its import context. The one
/// way `ingest`, `upload` and the server turn a file into events.
public struct PreparedImport: Sendable {
    /// How much of the file format detection reads.
    static let detectionPrefix = 64 << 10

    /// The format, as given or detected.
    public let format: InputFormat
    /// The file.
    public let file: URL
    /// The run id, source name, metadata and fallback start the import uses.
    public let context: ImportContext

    /// Settles the format of `file` and builds its import context.
    /// - Parameters:
    ///   - file: the input, on disk.
    ///   - sourceName: what errors call it: the path as given, `-` or `request body`.
    ///   - format: the format, or `nil` to detect it from the first bytes.
    ///   - formatOption: how the format is given where `sourceName` came from, for the fix
    ///     of an input whose format is not detected: `--format ` or `?format=`.
    ///   - metadata: the run's metadata.
    ///   - runID: the run id; `nil` derives it from the content and the project, so that the
    ///     same content imported twice into a project is one run.
    ///   - digest: the content's digest when it is known already; read from `file` if needed.
    ///   - fallbackStart: the run's start when the input carries none.
    ///   - repeats: how a repeated test id is read; `nil` lets the input decide.
    /// - Throws: ``LedgerInputError`` for an input whose format is not detected; an error
    ///   reading `file`.
    public init(
        file: URL, sourceName: String, format: InputFormat?, formatOption: String = "--format ",
        metadata: RunMetadata, runID: String? = nil, digest: ContentDigest? = nil, fallbackStart: Double,
        repeats: Repeats? = nil
    ) throws {
        guard let format = try format ?? InputFormat.detect(prefix: Self.prefix(of: file)) else {
            throw LedgerInputError(
                source: sourceName, line: 1, problem: LedgerInputError.undetectedFormat,
                fix: "pass \(formatOption)\(InputFormat.allCases.map(\.rawValue).joined(separator: "|"))")
        }
        self.format = format
        self.file = file
        context = ImportContext(
            runID: try runID ?? (digest ?? ContentDigest.of(file: file)).runID(project: metadata.project),
            sourceName: sourceName, metadata: metadata, fallbackStart: fallbackStart, repeats: repeats)
    }

    /// Imports the file into `sink`.
    /// - Parameter sink: where the events go, in order.
    /// - Throws: ``LedgerInputError`` when the input is malformed; whatever `sink` throws.
    public func run(into sink: inout some EventSink) throws {
        try format.importer.importResults(from: .file(file), context: context, into: &sink)
    }

    private static func prefix(of file: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        return try handle.read(upToCount: detectionPrefix) ?? Data()
    }
}

extension LedgerInputError {
    /// The problem of an input whose format is not detected.
    static let undetectedFormat = "not a format testledger reads"

    /// Whether the input's format was not detected (rather than the input being malformed).
    public var isUndetectedFormat: Bool { problem == Self.undetectedFormat }
}
