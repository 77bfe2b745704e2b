import LedgerStore
import PostgresNIO

extension PostgresLedger {
    /// The table that records applied migrations.
    static let migrationsTable = "ledger_migrations"

    /// Applies the embedded migrations not yet applied, in one transaction under the schema's
    /// migration lock (an advisory lock named after the schema, so that ledgers in other schemas of
    /// the database do not wait): one process migrates, the others wait and then find the schema
    /// migrated. Refuses a schema that has migrations this build does not know.
    func migrate() throws {
        try transaction { session in
            let lock = "testledger.migrate:" + (location.schema ?? "")
            try session.run("SELECT pg_advisory_xact_lock(hashtextextended(\(lock), 0))")
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
