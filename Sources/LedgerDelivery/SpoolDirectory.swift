import Foundation
import LedgerCore

/// Where batches wait to be sent: each a self-contained NDJSON Ledger event stream, written
/// whole (to a temporary name, then renamed) so a reader never sees half of one.
public struct SpoolDirectory: Sendable {
    /// The folder the batches are written to; ``add(_:live:)`` creates it when it is missing.
    public let url: URL

    /// Uses the folder at `url`, which need not exist yet.
    /// - Parameter url: the spool folder.
    public init(url: URL) {
        self.url = url
    }

    /// `TESTLEDGER_SPOOL`, else `.testledger/spool`.
    /// - Parameter environment: the variables to read `TESTLEDGER_SPOOL` from; a relative path is
    ///   taken from the working directory.
    public init(environment: LedgerEnvironment) {
        self.init(url: URL(fileURLWithPath: environment.spoolPath))
    }

    /// Batches the server refused as malformed: kept for a person to read, never resent.
    public var rejected: URL { url.appending(path: "rejected") }

    /// Writes a batch; returns its file. A `live` batch, cut anywhere by a recorder, is sent
    /// with `?live=1` so the server joins it to the attempts it keeps running.
    /// - Parameters:
    ///   - batch: the NDJSON bytes of one batch.
    ///   - live: whether the batch was cut inside a test, by a live recorder.
    /// - Returns: the batch's file, named after the time it was written (seconds since 1970), so that
    ///   names sort oldest first.
    /// - Throws: a file system error when the folder cannot be created or the file written or moved.
    public func add(_ batch: [UInt8], live: Bool = false) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let name = String(format: "%.6f", Date().timeIntervalSince1970) + "-" + UUID().uuidString
        let temporary = url.appending(path: ".\(name).partial")
        let file = url.appending(path: "\(name)\(live ? ".live" : "").ndjson")
        try Data(batch).write(to: temporary)
        try FileManager.default.moveItem(at: temporary, to: file)
        return file
    }

    /// The batches waiting, oldest first.
    /// - Returns: the folder's `.ndjson` files (hidden ones left out), in name order; empty when the
    ///   folder does not exist.
    /// - Throws: a file system error when the folder exists but cannot be listed.
    public func pending() throws -> [URL] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "ndjson" && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Removes what writers stopped mid-write left behind (`.incoming-*` folders, `.partial`
    /// files) once it is older than `age`, so a writer still at work is left alone. Returns what
    /// went.
    /// - Parameters:
    ///   - age: how long ago, in seconds, a leftover must have been last modified to go.
    ///   - now: the time ages are measured from.
    /// - Returns: the leftovers removed; none when the folder cannot be listed.
    @discardableResult
    public func sweep(olderThan age: TimeInterval = 3_600, now: Date = Date()) -> [URL] {
        let keys: Set<URLResourceKey> = [.contentModificationDateKey]
        let entries =
            (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: Array(keys))) ?? []
        return entries.filter { entry in
            let name = entry.lastPathComponent
            guard name.hasPrefix(".incoming-") || (name.hasPrefix(".") && name.hasSuffix(".partial")) else {
                return false
            }
            guard let modified = try? entry.resourceValues(forKeys: keys).contentModificationDate,
                now.timeIntervalSince(modified) > age
            else { return false }
            return (try? FileManager.default.removeItem(at: entry)) != nil
        }
    }

    /// Whether a spooled batch was cut by a live recorder.
    /// - Parameter file: a batch file, as ``add(_:live:)`` names it.
    /// - Returns: `true` when its name ends in `.live.ndjson`.
    public static func isLive(_ file: URL) -> Bool {
        file.lastPathComponent.hasSuffix(".live.ndjson")
    }

    /// Moves a refused batch aside; returns where it went.
    /// - Parameter file: the batch file to move.
    /// - Returns: its new place, in ``rejected``.
    /// - Throws: a file system error when ``rejected`` cannot be created or the file cannot be moved
    ///   (a file of that name was rejected before, say).
    public func reject(_ file: URL) throws -> URL {
        try FileManager.default.createDirectory(at: rejected, withIntermediateDirectories: true)
        let destination = rejected.appending(path: file.lastPathComponent)
        try FileManager.default.moveItem(at: file, to: destination)
        return destination
    }
}
