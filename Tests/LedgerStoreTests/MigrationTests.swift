import Foundation
import GRDB
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerStore

@Suite struct MigrationTests {
    /// The migrations in the repository's `Migrations/sqlite/`, by identifier, in order.
    static let migrationFiles: [String] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Migrations/sqlite")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }()

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
        #expect(migrations == Self.migrationFiles, "every file of Migrations/, in order")
        #expect(migrations.prefix(3) == ["001_initial", "002_tokens", "003_run_summaries"])
        for table in [
            "run", "test", "result", "issue", "activity", "capture", "predicate", "token", "run_summary", "quarantine",
            "ownership", "attachment", "session",
        ] {
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
        #expect(count == Self.migrationFiles.count)
    }

    @Test func aLedgerWrittenBeforeSummariesGetsThemWhenOpened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("older.sqlite")
        let older = try DatabaseQueue(path: path)
        try older.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for migration in EmbeddedMigrations.all.prefix(2) {
                try db.execute(sql: migration.sql)
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [migration.identifier])
            }
            try db.execute(
                sql: "INSERT INTO test (id, project, key) VALUES (1, 'Demo', 'A/flips'), (2, 'Demo', 'A/fine')")
            for run in 1...6 {
                let at = Double(run) * 86_400
                try db.execute(
                    sql:
                        "INSERT INTO run (id, uuid, project, source, startedAt, revision) VALUES (?, ?, 'Demo', 'junit', ?, ?)",
                    arguments: [run, "run-\(run)", at, "rev\(run / 2)"])
                try db.execute(
                    sql: """
                        INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome)
                        VALUES (?, 2, 1, ?, 0.25, 'passed'), (?, 1, 1, ?, 0.5, ?)
                        """, arguments: [run, at, run, at, run % 2 == 0 ? "failed" : "passed"])
                try db.execute(
                    sql: """
                        INSERT INTO predicate (resultId, at, name, expect, held, attempts, waited, timeout)
                        VALUES (last_insert_rowid(), ?, 'spinner gone', 'holds', ?, 3, 0.3, 1)
                        """, arguments: [at, run % 3 > 0])
            }
        }
        try older.close()

        let database = try LedgerDatabase(path: path)
        let (summaries, predicateRuns) = try database.writer.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT runId, tests, failed FROM run_summary ORDER BY runId")
                    .map { [$0[0], $0[1], $0[2]] as [Int] },
                try Int.fetchAll(db, sql: "SELECT runId FROM predicate ORDER BY id")
            )
        }
        #expect(summaries == (1...6).map { [$0, 2, $0 % 2 == 0 ? 1 : 0] })
        #expect(predicateRuns == Array(1...6))
        let report = try database.flakyReport(
            project: "Demo", runs: 10, since: nil, thresholds: FlakyThresholds(), now: 10 * 86_400)
        #expect(report.flaky.map(\.test) == ["A/flips"])
        #expect(report.predicates.first?.evaluations == 6)
        #expect(
            report
                == (try FullRecomputation.flaky(
                    database, project: "Demo", runs: 10, since: nil, thresholds: FlakyThresholds(), now: 10 * 86_400)))
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
