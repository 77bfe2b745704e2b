import Foundation
import LedgerCore

/// Journals of recorders that write in the background: each process appends every event to
/// `<database>.pending/<run>-<pid>.ndjson` before handing it to the store, and deletes the file
/// once everything in it is stored. A file whose process has gone (it crashed) still holds what
/// was recorded; whoever opens the store next stores it.
public enum PendingJournals {
    /// The folder of the journals that belong to the database at `databasePath`.
    public static func folder(forDatabase databasePath: String) -> URL {
        URL(fileURLWithPath: databasePath + ".pending")
    }

    /// The journal of process `pid` recording `run`.
    public static func journal(forDatabase databasePath: String, run: String, pid: Int32) -> URL {
        folder(forDatabase: databasePath).appending(path: "\(run)-\(pid).ndjson")
    }

    /// The process id a journal's name carries.
    static func pid(of journal: URL) -> Int32? {
        let name = journal.deletingPathExtension().lastPathComponent
        return name.split(separator: "-").last.flatMap { Int32($0) }
    }

    /// Whether the process that wrote a journal is still running.
    static func isWriterAlive(_ journal: URL) -> Bool {
        guard let pid = pid(of: journal) else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

extension LedgerDatabase {
    /// Stores the journals left by recorders that are no longer running, then deletes them.
    /// - Returns: how many journals were stored.
    @discardableResult
    public func recoverPendingJournals(databasePath: String) -> Int {
        let folder = PendingJournals.folder(forDatabase: databasePath)
        guard
            let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        else { return 0 }
        var recovered = 0
        for file in files where file.pathExtension == "ndjson" && !PendingJournals.isWriterAlive(file) {
            if (try? ingestJournal(file)) != nil {
                try? FileManager.default.removeItem(at: file)
                recovered += 1
            }
        }
        return recovered
    }

    /// Stores one journal; attempts it never ended stay running (they crashed). A last line cut
    /// short by the crash is left out.
    public func ingestJournal(_ journal: URL) throws {
        try ingest(keepRunning: true) { sink in
            var decoder = EventStreamDecoder(source: journal.path)
            var lines = LineReader(.file(journal)).makeIterator()
            while let line = lines.next() {
                guard let record = try? decoder.decode(line: line, number: lines.lineNumber) else { break }
                try sink.consume(record)
            }
        }
    }
}
