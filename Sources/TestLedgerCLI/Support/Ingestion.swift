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
        _ file: InputFile, format: InputFormat?, metadata: RunMetadata, runID: String? = nil,
        into database: LedgerDatabase
    ) throws -> Outcome {
        let prepared = try file.prepared(format: format, metadata: metadata, runID: runID)
        do {
            let summary = try database.ingest { sink in try prepared.run(into: &sink) }
            return Outcome(format: prepared.format, summary: summary)
        } catch let error as StoreSink.Problem {
            throw LedgerInputError(source: file.name, problem: error.message)
        }
    }
}
