import Foundation
import GRDB

/// The SQLite store: owns the database connection and migrates it when opened.
///
/// Several processes may write one file at once: it runs in WAL mode with a busy timeout.
public struct LedgerDatabase: Sendable {
    /// The connection; tests may pass an in-memory `DatabaseQueue`.
    public let writer: any DatabaseWriter

    /// Opens (creating when needed) and migrates the database at `writer`.
    /// - Throws: ``StoreError/newerSchema(path:unknown:)`` when the file was written by a newer
    ///   TestLedger (it is then left untouched), or any SQLite error.
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrate(writer)
    }

    /// Opens the database file at `path`, creating it and its folder when missing.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            try self.init(writer: DatabasePool(path: path, configuration: Self.configuration))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notADatabase(path: path)
        }
    }

    /// The configuration every connection uses: foreign keys, a busy timeout for concurrent
    /// writers, and `synchronous = NORMAL`, which WAL makes safe against power loss.
    public static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.all {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
            }
        }
        return migrator
    }

    private static func migrate(_ writer: any DatabaseWriter) throws {
        let migrator = migrator
        let superseded = try writer.read { db in try migrator.hasBeenSuperseded(db) }
        if superseded {
            let known = Set(EmbeddedMigrations.all.map(\.identifier))
            let applied = try writer.read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            throw StoreError.newerSchema(
                path: writer.path, unknown: applied.filter { !known.contains($0) })
        }
        do {
            try migrator.migrate(writer)
        } catch {
            // Another process may have applied the same migrations a moment earlier.
            let done = try writer.read { db in try migrator.hasCompletedMigrations(db) }
            if !done { throw error }
        }
    }
}
