import LedgerStore
import LedgerTestSupport
import PostgresNIO
import Testing

@testable import LedgerPostgres

/// The row types' columns against the tables PostgreSQL's migrations create.
@Suite(.enabled(if: TestPostgres.available, "needs TESTLEDGER_TEST_DATABASE_URL (a PostgreSQL server)"))
struct StoredRowPostgresSchemaTests {
    @Test func everyRowTypesColumnsAreItsTablesAsMigrated() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            for (table, rowTypes) in Dictionary(grouping: StoredRows.tables, by: \.table) {
                let migrated = try store.ledger.withConnection { session in
                    try session.rows(
                        """
                        SELECT column_name, data_type, is_nullable FROM information_schema.columns
                        WHERE table_schema = current_schema() AND table_name = \(table)
                        """
                    ).map { try $0.decode((String, String, String).self) }
                }
                let written = rowTypes.flatMap(\.columns)
                #expect(
                    Set(migrated.map(\.0))
                        == Set(
                            (written.map(\.name) + rowTypes.flatMap(\.setElsewhere)).map { $0.lowercased() } + ["id"]),
                    "\(table)")
                for column in written {
                    let stored = try #require(migrated.first { $0.0 == column.name.lowercased() }, "\(column.name)")
                    #expect(stored.1 == Self.postgresType[column.type], "\(table).\(column.name)")
                    if stored.2 == "NO" {
                        #expect(!column.isOptional, "\(table).\(column.name) is NOT NULL")
                    }
                }
            }
        }
    }

    private static let postgresType: [StoredValue.Kind: String] = [
        .integer: "bigint", .real: "double precision", .text: "text",
    ]
}
