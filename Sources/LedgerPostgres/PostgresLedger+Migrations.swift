import LedgerStore
import PostgresNIO

extension PostgresLedger {
    /// The table that records applied migrations.
    static let migrationsTable = "ledger_migrations"
    /// The advisory lock every opener takes to migrate: one process migrates, the others wait and
    /// then find the schema migrated.
    static let migrationLock: Int64 = 0x7465_7374_6C65_6467

    /// Applies the embedded migrations not yet applied, in one transaction under the migration
    /// lock; refuses a schema that has migrations this build does not know.
    func migrate() throws {
        try transaction { session in
            try session.run("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
            if let schema = location.schema {
                try session.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(Self.quoted(schema))"))
            }
            try session.run(
                PostgresQuery(
                    unsafeSQL: "CREATE TABLE IF NOT EXISTS \(Self.migrationsTable) (identifier TEXT PRIMARY KEY)"))
            let applied = Set(
                try session.rows(PostgresQuery(unsafeSQL: "SELECT identifier FROM \(Self.migrationsTable)"))
                    .map { try $0.decode(String.self) })
            let known = Set(EmbeddedMigrations.all.map(\.identifier))
            let unknown = applied.subtracting(known).sorted()
            if !unknown.isEmpty { throw StoreError.newerSchema(path: location.redacted, unknown: unknown) }
            for migration in EmbeddedMigrations.all where !applied.contains(migration.identifier) {
                for statement in SQLStatements.split(migration.sql) {
                    try session.run(PostgresQuery(unsafeSQL: statement))
                }
                try session.run(
                    PostgresQuery(
                        unsafeSQL: "INSERT INTO \(Self.migrationsTable) (identifier) VALUES ('\(migration.identifier)')"
                    ))
            }
        }
    }

    /// An identifier quoted for SQL.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
