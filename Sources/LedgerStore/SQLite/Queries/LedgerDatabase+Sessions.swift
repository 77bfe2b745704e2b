import Foundation
import GRDB

extension LedgerDatabase {
    /// Starts a dashboard session for a token.
    /// - Parameters:
    ///   - hash: the hex SHA-256 of the session id the browser keeps; the id itself is never stored.
    ///   - token: the token's row id.
    ///   - time: now, in seconds since 1970.
    ///   - lifetime: seconds until it expires.
    /// - Throws: any SQLite error.
    public func startSession(hash: String, token: Int64, at time: Double, lifetime: Double) throws {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO session (hash, tokenId, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [hash, token, time, time + lifetime])
            // Sessions that ended long ago are of no use to anyone.
            try db.execute(
                sql: "DELETE FROM session WHERE expiresAt < ? OR revokedAt < ?",
                arguments: [time - 86_400, time - 86_400])
        }
    }

    /// The token of a live session: not expired, not ended, and its token not revoked.
    /// - Parameters:
    ///   - hash: the hex SHA-256 of the session id presented.
    ///   - time: now, in seconds since 1970.
    /// - Returns: the session's token; `nil` when no live session has that hash.
    /// - Throws: any SQLite error.
    public func sessionToken(hash: String, at time: Double) throws -> StoredToken? {
        try writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT t.* FROM session s JOIN token t ON t.id = s.tokenId
                    WHERE s.hash = ? AND s.revokedAt IS NULL AND s.expiresAt > ? AND t.revokedAt IS NULL
                    """, arguments: [hash, time]
            ).map(StoredToken.init(row:))
        }
    }

    /// Ends a session, as signing out does.
    /// - Returns: whether a live session had that hash.
    /// - Throws: any SQLite error.
    @discardableResult
    public func endSession(hash: String, at time: Double) throws -> Bool {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE session SET revokedAt = ? WHERE hash = ? AND revokedAt IS NULL", arguments: [time, hash])
            return db.changesCount > 0
        }
    }
}
