import Foundation
import GRDB
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct MigrationTests {
    @Test func freshFileIsMigratedInWALModeWithForeignKeys() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let (mode, foreignKeys, migrations, tables) = try ledger.database.writer.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            )
        }
        #expect(mode == "wal")
        #expect(foreignKeys == 1)
        #expect(migrations == ["001_initial", "002_tokens"])
        for table in ["run", "test", "result", "issue", "activity", "capture", "predicate", "token"] {
            #expect(tables.contains(table))
        }
    }

    @Test func reopeningAMigratedFileChangesNothing() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        _ = try LedgerDatabase(path: ledger.path)
        let count = try ledger.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations")
        }
        #expect(count == 2)
    }

    @Test func newerSchemaIsRefusedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("newer.sqlite")
        do {
            let database = try LedgerDatabase(path: path)
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('999_from_the_future')")
                try db.execute(sql: "CREATE TABLE future (x)")
            }
            try (database.writer as? DatabasePool)?.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try LedgerDatabase(path: path)
        } throws: { error in
            guard case .newerSchema(_, let unknown) = error as? StoreError else { return false }
            return unknown == ["999_from_the_future"] && "\(error)".contains("newer TestLedger")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFileThatIsNotADatabaseIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try directory.write("junk.sqlite", String(repeating: "not sqlite ", count: 200))
        #expect(throws: StoreError.notADatabase(path: url.path)) { try LedgerDatabase(path: url.path) }
    }
}
