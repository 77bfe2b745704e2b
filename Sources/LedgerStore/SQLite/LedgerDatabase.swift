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
        try StoreError.naming(writer.path) { try Self.migrate(writer) }
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
                try StoreError.naming(path) { try Self.refuseNewerSchema(path: path) }
            }
            try self.init(writer: StoreError.naming(path) { try Self.openPool(path: path) })
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notADatabase(path: path)
        }
    }

    /// Opens the database file at `path` for reading only, as reports do, when it is up to date:
    /// one read-only connection, and nothing written to the file. Opening a pool writes a
    /// transaction each time (GRDB makes sure a write-ahead log exists), which costs a read
    /// command's start-up a few `fsync`s. A missing file, or one this build must first migrate,
    /// is opened as ``init(path:)`` opens it.
    /// - Parameter path: the database file.
    /// - Returns: the ledger; writing to it throws an SQLite error.
    /// - Throws: as ``init(path:)``.
    public static func openForReading(path: String) throws -> LedgerDatabase {
        guard FileManager.default.fileExists(atPath: path) else { return try LedgerDatabase(path: path) }
        var configuration = Self.configuration
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try StoreError.naming(path) { try DatabaseQueue(path: path, configuration: configuration) }
            let upToDate = try StoreError.naming(path) {
                try queue.read { db in
                    let unknown = try unknownMigrations(db)
                    if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown) }
                    return try pendingMigrations(db).isEmpty
                }
            }
            if upToDate { return LedgerDatabase(opened: queue) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notADatabase(path: path)
        }
        try queue.close()
        return try LedgerDatabase(path: path)
    }

    private init(opened writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Opens the pool, waiting while another process holds the lock that switching a new file to
    /// WAL needs: SQLite answers that switch with `SQLITE_BUSY` at once rather than through the busy
    /// handler, so it is retried here, within the same 30 s the busy timeout allows.
    private static func openPool(path: String) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(30)
        var delay = 0.005
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: delay * Double.random(in: 0.5...1.5))
                delay = min(delay * 2, 0.2)
            }
        }
    }

    /// The configuration every connection uses: foreign keys, a busy timeout for concurrent
    /// writers, `synchronous = NORMAL` (WAL makes it safe against power loss), a page cache of up
    /// to 16 MiB (ingesting a million results is no faster with 128 MiB, and peaked at 190 MB
    /// instead of 81; the pages missed are read back from the system's cache), and a write-ahead log kept to a few MiB: a checkpoint once it holds
    /// ``checkpointPages`` pages, and the file cut back to ``walSizeLimit`` bytes when SQLite
    /// starts it over (a transaction larger than that still grows it while it runs).
    public static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -16384")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(walSizeLimit)")
        }
        return configuration
    }

    /// The write-ahead log's pages (4 KiB each) after which a commit checkpoints it: 4 MiB.
    public static let checkpointPages = 1_024
    /// The size, in bytes, to which SQLite cuts the write-ahead log back after a checkpoint: 4 MiB.
    public static let walSizeLimit = 4 << 20

    /// Closes the connections, first folding the write-ahead log into the database and cutting it
    /// to nothing, so that the next process to open the ledger has no log to read through. The
    /// fold waits for no one: while another process reads or writes the ledger, what it cannot
    /// fold is left to that process's own checkpoints. The store cannot be used afterwards.
    ///
    /// SQLite folds the log itself only when the last connection to the file closes, and a
    /// pool's read-only connections, which close last, cannot.
    ///
    /// - Throws: an SQLite error when a connection cannot be closed, such as one still in use.
    public func close() throws {
        try? writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try writer.close()
    }

    /// What a migration's SQL cannot fill in by itself, by migration.
    static let backfills: [String: @Sendable (Database) throws -> Void] = [
        // Summaries are written as the newest schema has them: a ledger from before 003 gets them
        // at 015, in the same transaction.
        "015_run_concurrency": RunSummary.refreshAll(in:)
    ]

    /// The table that records applied migrations; the name GRDB's migrator gave it, so that
    /// ledgers it migrated read the same.
    static let migrationsTable = "grdb_migrations"

    /// Looks at an existing file read-only, before anything (even WAL mode) is written to it.
    private static func refuseNewerSchema(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let unknown = try queue.read { db in try unknownMigrations(db) }
        if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown) }
    }

    /// Applied migrations this build does not know: the file is from a newer TestLedger.
    private static func unknownMigrations(_ db: Database) throws -> [String] {
        guard try db.tableExists(migrationsTable) else { return [] }
        let known = Set(EmbeddedMigrations.all.map(\.identifier))
        return try String.fetchAll(db, sql: "SELECT identifier FROM \(migrationsTable) ORDER BY identifier")
            .filter { !known.contains($0) }
    }

    /// Applies the migrations not yet applied, all in one `IMMEDIATE` transaction: SQLite's write
    /// lock (waited for within the busy timeout) makes the schema check and the migration one step,
    /// so processes that open a new or older ledger at once each find it either untouched or
    /// migrated, and exactly one of them migrates it. Foreign keys are checked before committing.
    private static func migrate(_ writer: any DatabaseWriter) throws {
        try writer.barrierWriteWithoutTransaction { db in
            if try pendingMigrations(db).isEmpty, try unknownMigrations(db).isEmpty { return }
            // A table rebuild (a changed CHECK) needs foreign keys off, which only holds outside a transaction.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            try db.inTransaction(.immediate) {
                let unknown = try unknownMigrations(db)
                if !unknown.isEmpty { throw StoreError.newerSchema(path: writer.path, unknown: unknown) }
                try db.execute(
                    sql: "CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
                for migration in try pendingMigrations(db) {
                    try db.execute(sql: migration.sql)
                    try backfills[migration.identifier]?(db)
                    try db.execute(
                        sql: "INSERT INTO \(migrationsTable) (identifier) VALUES (?)", arguments: [migration.identifier]
                    )
                }
                if let broken = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                    throw StoreError.foreignKeyViolation(table: broken[0] ?? "?")
                }
                return .commit
            }
        }
    }

    /// The embedded migrations not applied to `db`, in order.
    private static func pendingMigrations(_ db: Database) throws -> [(identifier: String, sql: String)] {
        let applied =
            try db.tableExists(migrationsTable)
            ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM \(migrationsTable)")) : []
        return EmbeddedMigrations.all.filter { !applied.contains($0.identifier) }
    }
}
