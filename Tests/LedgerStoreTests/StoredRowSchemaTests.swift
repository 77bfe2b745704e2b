import GRDB
import LedgerTestSupport
import Testing

@testable import LedgerStore

/// The row types' columns against the tables SQLite's migrations create: a column added to one
/// and not the other fails here.
@Suite struct StoredRowSchemaTests {
    @Test func everyRowTypesColumnsAreItsTablesAsMigrated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let ledger = try LedgerDatabase(path: directory.path("ledger.sqlite"))
        let tables = try ledger.writer.read { db in
            try Dictionary(
                uniqueKeysWithValues: Set(StoredRows.tables.map(\.table)).map { table in
                    (table, try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))"))
                })
        }
        for (table, rowTypes) in Dictionary(grouping: StoredRows.tables, by: \.table) {
            let migrated = try #require(tables[table])
            let written = rowTypes.flatMap(\.columns)
            // Every column but the row id is written by some row type, or said to be set elsewhere.
            #expect(
                Set(migrated.map { $0["name"] as String })
                    == Set(written.map(\.name) + rowTypes.flatMap(\.setElsewhere) + ["id"]), "\(table)")
            for column in written {
                let stored = try #require(migrated.first { $0["name"] == column.name }, "\(table).\(column.name)")
                #expect(stored["type"] as String == Self.sqliteType[column.type], "\(table).\(column.name)")
                if stored["notnull"] as Bool {
                    #expect(!column.isOptional, "\(table).\(column.name) is NOT NULL")
                }
            }
        }
        for rowType in StoredRows.tables {
            #expect(Set(rowType.columns.map(\.name)).count == rowType.columns.count, "\(rowType.table)")
        }
    }

    @Test func everyIngestStatementPreparesOnTheMigratedSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let ledger = try LedgerDatabase(path: directory.path("ledger.sqlite"))
        try ledger.writer.read { db in
            for statement in StoreStatement.allCases {
                #expect(throws: Never.self, "\(statement)") { _ = try db.makeStatement(sql: statement.sql) }
            }
        }
    }

    @Test func statementsAreDerivedFromTheColumnsInEachDialect() {
        #expect(
            StoredRows.RunEnd.updateSQL(.sqlite)
                == "UPDATE run SET endedAt = max(coalesce(run.endedAt, ?2), ?2), "
                + "outcome = coalesce(?3, run.outcome, 'finished'), reportedTests = coalesce(?4, run.reportedTests), "
                + "reportedFailures = coalesce(?5, run.reportedFailures), "
                + "reportedErrors = coalesce(?6, run.reportedErrors) WHERE id = ?1")
        #expect(
            StoredRows.Result.insertSQL(.postgresql, rows: 2, conflict: .ignore, returning: "id")
                == "INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome, message, process, load, "
                + "cpu) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10), "
                + "($11, $12, $13, $14, $15, $16, $17, $18, $19, $20) "
                + "ON CONFLICT (runId, testId, attempt) DO NOTHING RETURNING id")
        #expect(
            StoredRows.Test.insertSQL(.postgresql, conflict: .merge).hasSuffix(
                "ON CONFLICT (project, key) DO UPDATE SET suite = coalesce(excluded.suite, test.suite), "
                    + "name = coalesce(excluded.name, test.name), file = coalesce(excluded.file, test.file), "
                    + "line = coalesce(excluded.line, test.line), layer = coalesce(excluded.layer, test.layer), "
                    + "tags = coalesce(excluded.tags, test.tags)"))
    }

    @Test func aTestsFieldsAreMergedAsTheKnownTestsMergeThem() {
        // `TestColumns` reproduces the upsert in memory: a given value replaces the stored one.
        #expect(StoredRows.Test.fields.allSatisfy { $0.merge == .takeGiven })
        let stored = TestColumns(values: [.text("Suite"), .null, .integer(3)])
        let given = TestColumns(values: [.null, .text("name"), .integer(3)])
        #expect(!stored.covers(given))
        #expect(given.stored(over: stored) == TestColumns(values: [.text("Suite"), .text("name"), .integer(3)]))
        #expect(given.stored(over: stored).covers(given))
        #expect(stored.covers(TestColumns(values: [.null, .null, .integer(3)])))
    }

    private static let sqliteType: [StoredValue.Kind: String] = [.integer: "INTEGER", .real: "REAL", .text: "TEXT"]
}
