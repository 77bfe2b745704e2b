import Foundation
import LedgerCore

extension LedgerDatabase {
    /// Stores the journals left by recorders that are no longer running, then deletes them.
    ///
    /// A run such a journal leaves without an end is ended as ``RunOutcome/interrupted``, at the
    /// journal's last modification, unless a journal of the same run still has a live writer. A
    /// journal that cannot be stored is kept for the next time. Errors are not reported.
    /// - Parameter databasePath: the path of this database's file, which names the journals' folder.
    /// - Returns: how many journals were stored.
    @discardableResult
    public func recoverPendingJournals(databasePath: String) -> Int {
        let folder = PendingJournals.folder(forDatabase: databasePath)
        guard
            let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        else { return 0 }
        let journals = files.filter { $0.pathExtension == "ndjson" }
        let alive = journals.filter(PendingJournals.isWriterAlive)
        var recovered = 0
        for file in journals where !alive.contains(file) {
            let lastWrite =
                (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
                ?? Date()
            guard let unended = try? ingestJournal(file) else { continue }
            // Its writer is gone. Unless another writer of the run is still at work, the run is
            // over: what never ended in it crashed.
            let stillWriting = Set(alive.compactMap(PendingJournals.run(of:)))
            for run in unended.subtracting(stillWriting) {
                try? endInterruptedRun(run, at: lastWrite.timeIntervalSince1970)
            }
            try? FileManager.default.removeItem(at: file)
            recovered += 1
        }
        return recovered
    }

    /// Stores one journal; attempts it never ended stay running (a crashed test, or a Swift
    /// Testing test whose outcome comes from its own event stream). A last line cut short by a
    /// crash is left out.
    /// - Parameter journal: the journal file.
    /// - Returns: the runs the journal wrote to without giving them an end.
    /// - Throws: what storing throws; nothing is stored then.
    @discardableResult
    public func ingestJournal(_ journal: URL) throws -> Set<String> {
        var unended: Set<String> = []
        try ingest(keepRunning: true) { sink in
            var decoder = EventStreamDecoder(source: journal.path)
            var lines = LineReader(.file(journal)).makeIterator()
            while let line = lines.next() {
                guard let record = try? decoder.decode(line: line, number: lines.lineNumber) else { break }
                if case .runEnd = record.event { unended.remove(record.run) } else { unended.insert(record.run) }
                try sink.consume(record)
            }
        }
        return unended
    }

    /// Ends a run whose writers are gone without ending it; a producer's own outcome stays.
    func endInterruptedRun(_ run: String, at: Double) throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    UPDATE run SET endedAt = max(coalesce(endedAt, ?1), ?1), outcome = coalesce(outcome, 'interrupted')
                    WHERE uuid = ?2
                    """, arguments: [at, run])
        }
    }
}
