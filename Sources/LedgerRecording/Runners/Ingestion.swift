import Foundation
import LedgerCore
import LedgerImport
import LedgerStore

/// Reads one input into the store in one transaction: nothing is stored if it fails.
package enum Ingestion {
    package struct Outcome {
        package var format: InputFormat
        package var summary: IngestSummary
    }

    /// Ingests `file`; the run id is the one given (for `record`) or derived from the content.
    /// - Parameters:
    ///   - file: the input.
    ///   - format: the input's format; detected when `nil`.
    ///   - metadata: the run's metadata.
    ///   - runID: the run's id; derived from the content when `nil`.
    ///   - attemptOffset: the attempts its tests already had in the run (for a retry's
    ///     outputs): each attempt it holds is stored that many later.
    ///   - stamp: the process and load `record` saw, for the attempts that name none.
    ///   - repeats: how a repeated test id is read; `nil` lets the input decide.
    ///   - database: the store.
    /// - Returns: the format read and what was stored.
    /// - Throws: ``LedgerInputError`` for unreadable or malformed input.
    package static func ingest(
        _ file: InputFile, format: InputFormat?, metadata: RunMetadata, runID: String? = nil, attemptOffset: Int = 0,
        stamp: ProcessStamp? = nil, repeats: Repeats? = nil, into database: any ResultStore
    ) throws -> Outcome {
        let prepared = try file.prepared(format: format, metadata: metadata, runID: runID, repeats: repeats)
        do {
            let summary = try database.ingest { sink in
                try sink.offsettingAttempts(by: attemptOffset) { shifting in
                    guard let stamp else { return try prepared.run(into: &shifting) }
                    try shifting.stamping(stamp) { try prepared.run(into: &$0) }
                }
            }
            return Outcome(format: prepared.format, summary: summary)
        } catch let error as StoreSink.Problem {
            throw LedgerInputError(source: file.name, problem: error.message)
        }
    }

    /// Ingests a `.xcresult` bundle through `xcresulttool`: its tests, their activities and
    /// attachments. The run id is the one given (for `record`) or derived from the tests document.
    /// - Parameters:
    ///   - bundle: the result bundle.
    ///   - metadata: the run's metadata.
    ///   - runID: the run's id; derived from the tests document when `nil`.
    ///   - interrupted: whether the command that wrote it was cut short.
    ///   - attemptOffset: the attempts each of its tests already had in the run (a retry's bundle).
    ///   - database: the store.
    /// - Returns: the format (`.xcresult`) and what was stored.
    /// - Throws: ``LedgerInputError`` naming the bundle when it cannot be read.
    package static func ingest(
        _ bundle: XCResultBundle, metadata: RunMetadata, runID: String? = nil, interrupted: Bool = false,
        attemptOffset: Int = 0, into database: any ResultStore
    ) throws -> Outcome {
        let (tests, details) = try bundle.read()
        var digest = ContentDigest()
        digest.update(tests)
        let modified = (try? FileManager.default.attributesOfItem(atPath: bundle.path)[.modificationDate] as? Date)
        let context = ImportContext(
            runID: runID ?? digest.runID(project: metadata.project), sourceName: bundle.path, metadata: metadata,
            fallbackStart: (modified ?? Date()).timeIntervalSince1970)
        let importer = XCResultImporter(bundle: details, interrupted: interrupted)
        do {
            let summary = try database.ingest { sink in
                try sink.offsettingAttempts(by: attemptOffset) {
                    try importer.importResults(from: .data(tests), context: context, into: &$0)
                }
            }
            return Outcome(format: .xcresult, summary: summary)
        } catch let error as StoreSink.Problem {
            throw LedgerInputError(source: bundle.path, problem: error.message)
        }
    }
}
