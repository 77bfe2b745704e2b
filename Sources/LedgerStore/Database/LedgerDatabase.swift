import Foundation
import GRDB

/// The SQLite store: owns the database connection and migrates it when opened.
///
/// Several processes may write one file at once: it runs in WAL mode with a busy timeout.
public struct LedgerDatabase: Sendable {
    /// The connection; tests may pass an in-memory `DatabaseQueue`.
    public let writer: any DatabaseWriter
    /// Test rows seen by this process, so that ingests skip looking them up again.
    let knownTests = KnownTests()

    /// Opens (creating when needed) and migrates the database at `writer`.
    ///
    /// Migrating is safe when another process migrates the same file at the same moment.
    /// - Parameter writer: the connection to use: a `DatabasePool` on a file, or an in-memory
    ///   `DatabaseQueue` in tests.
    /// - Throws: ``StoreError/newerSchema(path:unknown:)`` when the file was written by a newer
    ///   TestLedger (it is then left untouched), or any SQLite error.
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrate(writer)
    }

    /// Opens the database file at `path`, creating it and its folder when missing.
    ///
    /// An existing file is first checked read-only, so one written by a newer TestLedger is left
    /// untouched; the file is then opened with ``configuration`` and migrated.
    /// - Parameter path: the database file.
    /// - Throws: ``StoreError/newerSchema(path:unknown:)`` for a file from a newer TestLedger,
    ///   ``StoreError/notADatabase(path:)`` for a file that is not SQLite, or a file system or
    ///   SQLite error.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            if FileManager.default.fileExists(atPath: path) {
                try Self.refuseNewerSchema(path: path)
            }
            try self.init(writer: DatabasePool(path: path, configuration: Self.configuration))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notADatabase(path: path)
        }
    }

    /// The configuration every connection uses: foreign keys, a busy timeout for concurrent
    /// writers, `synchronous = NORMAL` (WAL makes it safe against power loss), a page cache of up
    /// to 128 MiB and checkpoints every 64 MiB of WAL, so that large ingests into a large ledger
    /// do not rewrite the same index pages over and over.
    public static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -131072")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384")
        }
        return configuration
    }

    /// What a migration's SQL cannot fill in by itself, by migration.
    static let backfills: [String: @Sendable (Database) throws -> Void] = [
        "003_run_summaries": RunSummary.refreshAll(in:)
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.all {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
                try backfills[migration.identifier]?(db)
            }
        }
        return migrator
    }

    /// Looks at an existing file read-only, before anything (even WAL mode) is written to it.
    private static func refuseNewerSchema(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        try checkSchema(queue)
    }

    private static func checkSchema(_ reader: any DatabaseReader) throws {
        let unknown = try reader.read { db -> [String] in
            guard try migrator.hasBeenSuperseded(db) else { return [] }
            let known = Set(EmbeddedMigrations.all.map(\.identifier))
            return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").filter { !known.contains($0) }
        }
        if !unknown.isEmpty { throw StoreError.newerSchema(path: reader.path, unknown: unknown) }
    }

    private static func migrate(_ writer: any DatabaseWriter) throws {
        let migrator = migrator
        try checkSchema(writer)
        do {
            try migrator.migrate(writer)
        } catch {
            // Another process may have applied the same migrations a moment earlier.
            let done = try writer.read { db in try migrator.hasCompletedMigrations(db) }
            if !done { throw error }
        }
    }
}
