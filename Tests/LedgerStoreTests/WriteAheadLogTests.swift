import Foundation
import GRDB
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// A ledger's write-ahead log stays small, and closing the store folds it into the database.
@Suite struct WriteAheadLogTests {
    @Test func theLogIsCheckpointedOftenAndCutBack() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let (pages, limit) = try ledger.database.writer.read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint"),
                try Int.fetchOne(db, sql: "PRAGMA journal_size_limit")
            )
        }
        #expect(pages == LedgerDatabase.checkpointPages)
        #expect(limit == LedgerDatabase.walSizeLimit)
        #expect(LedgerDatabase.walSizeLimit <= 4 << 20 && LedgerDatabase.checkpointPages * 4_096 <= 4 << 20)
    }

    @Test func closingFoldsTheLogIntoTheDatabase() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        for index in 0..<3 {
            var script = RunScript(run: String(format: "00000000-0000-4000-8000-%012x", index)).start()
            for test in 0..<50 { script = script.pass("A/test\(test)") }
            try ledger.ingest(script.end().records)
        }
        #expect(try logSize(ledger) > 0)
        // A read opens one of the pool's read-only connections, which close after the writer.
        #expect(try ledger.count("result") == 150)
        try ledger.database.close()
        #expect(try logSize(ledger) == 0)
        let reopened = try LedgerDatabase(path: ledger.path)
        defer { try? reopened.close() }
        #expect(try reopened.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM result") } == 150)
    }

    /// The size of the ledger's write-ahead log file; 0 when there is none.
    func logSize(_ ledger: TemporaryLedger) throws -> Int {
        guard FileManager.default.fileExists(atPath: ledger.path + "-wal") else { return 0 }
        return try FileManager.default.attributesOfItem(atPath: ledger.path + "-wal")[.size] as? Int ?? 0
    }
}
