import Foundation
import LedgerCore
import LedgerImport
import LedgerStore

/// Reads one input into the store in one transaction: nothing is stored if it fails.
enum Ingestion {
    struct Outcome {
        var format: InputFormat
        var summary: IngestSummary
    }

    /// Ingests `file`; the run id is the one given (for `record`) or derived from the content.
    /// - Throws: ``LedgerInputError`` for unreadable or malformed input.
    static func ingest(
        _ file: InputFile, format requested: InputFormat?, metadata: RunMetadata, runID: String? = nil,
        into database: LedgerDatabase
    ) throws -> Outcome {
        let (format, context) = try reading(file, format: requested, metadata: metadata, runID: runID)
        let importer = format.importer
        do {
            let summary = try database.ingest { sink in
                try importer.importResults(from: .file(file.url), context: context, into: &sink)
            }
            return Outcome(format: format, summary: summary)
        } catch let error as LedgerInputError {
            throw error
        } catch let error as StoreSink.Problem {
            throw LedgerInputError(source: file.name, problem: error.message)
        }
    }

    /// The input's format (detected unless given) and its import context, whose run id is the
    /// one given or derived from the content and the project, so that the same file twice is one run.
    static func reading(
        _ file: InputFile, format requested: InputFormat?, metadata: RunMetadata, runID: String? = nil
    ) throws -> (InputFormat, ImportContext) {
        guard let format = try requested ?? InputFormat.detect(prefix: file.prefix()) else {
            throw LedgerInputError(
                source: file.name, line: 1, problem: "not a format testledger reads",
                fix: "pass --format \(InputFormat.allCases.map(\.rawValue).joined(separator: "|"))")
        }
        let context = ImportContext(
            runID: runID ?? file.digest.runID(project: metadata.project), sourceName: file.name, metadata: metadata,
            fallbackStart: file.modified)
        return (format, context)
    }
}
