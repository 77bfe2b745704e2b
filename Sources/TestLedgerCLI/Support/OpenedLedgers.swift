import Foundation
import LedgerStore

/// The SQLite ledgers a command opened, closed when it finishes: SQLite then checkpoints each
/// write-ahead log into its database and removes it, instead of leaving a log that the next
/// command reads through before it can start.
enum OpenedLedgers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var opened: [LedgerDatabase] = []

    /// Keeps `database` to be closed when the command finishes.
    /// - Parameter database: a ledger the command has just opened.
    /// - Returns: `database`.
    static func keep(_ database: LedgerDatabase) -> LedgerDatabase {
        lock.withLock { opened.append(database) }
        return database
    }

    /// Closes every ledger kept, the command being over. A ledger that cannot be closed is left
    /// to the process's exit, as before.
    static func closeAll() {
        let closing = lock.withLock {
            defer { opened.removeAll() }
            return opened
        }
        for database in closing { try? database.close() }
    }
}
