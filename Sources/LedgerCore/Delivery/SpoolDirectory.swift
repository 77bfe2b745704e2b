import Foundation

/// Where batches wait to be sent: each a self-contained NDJSON Ledger event stream, written
/// whole (to a temporary name, then renamed) so a reader never sees half of one.
public struct SpoolDirectory: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// `TESTLEDGER_SPOOL`, else `.testledger/spool`.
    public init(environment: LedgerEnvironment) {
        self.init(url: URL(fileURLWithPath: environment.spoolPath))
    }

    /// Batches the server refused as malformed: kept for a person to read, never resent.
    public var rejected: URL { url.appending(path: "rejected") }

    /// Writes a batch; returns its file. A `live` batch, cut anywhere by a recorder, is sent
    /// with `?live=1` so the server joins it to the attempts it keeps running.
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
    public func pending() throws -> [URL] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "ndjson" && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Removes what writers stopped mid-write left behind (`.incoming-*` folders, `.partial`
    /// files) once it is older than `age`, so a writer still at work is left alone. Returns what
    /// went.
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
    public static func isLive(_ file: URL) -> Bool {
        file.lastPathComponent.hasSuffix(".live.ndjson")
    }

    /// Moves a refused batch aside; returns where it went.
    public func reject(_ file: URL) throws -> URL {
        try FileManager.default.createDirectory(at: rejected, withIntermediateDirectories: true)
        let destination = rejected.appending(path: file.lastPathComponent)
        try FileManager.default.moveItem(at: file, to: destination)
        return destination
    }
}
