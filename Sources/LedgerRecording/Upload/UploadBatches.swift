import Foundation
import LedgerCore
import LedgerDelivery
import LedgerImport

/// What `upload` does with its inputs: each checked and turned into batches in the spool, then
/// every batch sent, removed once the server stored it and kept while it cannot be reached.
package enum UploadBatches {
    /// Sends each batch, removing it once stored; returns how many wait and how many were refused.
    package static func deliver(
        _ batches: [(name: String, file: URL)], with client: UploadClient, spool: SpoolDirectory
    )
        -> (unsent: Int, refused: Int)
    {
        var unsent = 0
        var refused = 0
        let progress = FilesProgress(
            "upload", totalBytes: batches.reduce(0) { $0 + FilesProgress.size(of: $1.file.path) })
        defer { progress.finish() }
        for (name, file) in batches {
            progress.begin(size: FilesProgress.size(of: file.path))
            defer { progress.end() }
            switch client.send(file: file) {
            case .stored(let receipt):
                try? FileManager.default.removeItem(at: file)
                var line = "\(name): \(receipt.results) result(s) stored"
                if receipt.alreadyStored > 0 { line += ", \(receipt.alreadyStored) already stored" }
                progress.print(line + runNames(receipt.runs))
            case .refused(let status, let message):
                refused += 1
                var kept = "kept in \(file.path)"
                if status == 400 || status == 413, let moved = try? spool.reject(file) {
                    kept = "moved to \(moved.path)"
                }
                progress.warn("error: \(name): the server refused it (\(message)); \(kept)")
            case .unreachable(let reason):
                unsent += 1
                progress.warn("warning: \(name): not sent (\(reason)); kept in \(file.path)")
            }
        }
        return (unsent, refused)
    }

    /// Checks and converts one input into batches in the spool.
    package static func spool(
        _ path: String, format: InputFormat?, metadata: RunMetadata, into spool: SpoolDirectory,
        batchBytes: Int
    ) throws -> [URL] {
        let file = try InputFile.open(path)
        defer { file.close() }
        let prepared = try file.prepared(format: format, metadata: metadata)
        var writer = try SpoolWriter(spool: spool, targetBytes: batchBytes)
        do {
            try prepared.run(into: &writer)
        } catch {
            writer.discard()
            throw error
        }
        for warning in writer.warnings { printError("warning: \(warning)") }
        return try writer.commit(to: spool)
    }
}
