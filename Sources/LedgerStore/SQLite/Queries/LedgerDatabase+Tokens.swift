import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// Stores a new token's hash; returns its id.
    /// - Parameters:
    ///   - project: the project the token gives access to.
    ///   - scope: what it allows there.
    ///   - hash: the token's hex SHA-256; the token itself is never stored.
    ///   - prefix: the token's first characters, to name it in lists.
    /// - Returns: the new token's row id.
    /// - Throws: any SQLite error, such as for a hash that is already stored.
    public func addToken(project: String, scope: StoredToken.Scope, hash: String, prefix: String) throws -> Int64 {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO token (project, scope, hash, prefix, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [project, scope.rawValue, hash, prefix, Date().timeIntervalSince1970])
            return db.lastInsertedRowID
        }
    }

    /// The live (not revoked) token with this hash.
    /// - Parameter hash: the hex SHA-256 of the presented token.
    /// - Returns: the token, or `nil` when no live token has that hash.
    /// - Throws: any SQLite error.
    public func token(hash: String) throws -> StoredToken? {
        try writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM token WHERE hash = ? AND revokedAt IS NULL", arguments: [hash]
            ).map(StoredToken.init(row:))
        }
    }

    /// Every token, newest first.
    /// - Returns: live and revoked tokens alike.
    /// - Throws: any SQLite error.
    public func tokens() throws -> [StoredToken] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM token ORDER BY id DESC").map(StoredToken.init(row:))
        }
    }

    /// Whether any live token exists: a server without one must stay on loopback.
    /// - Returns: `true` when at least one token is not revoked.
    /// - Throws: any SQLite error.
    public func hasLiveTokens() throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM token WHERE revokedAt IS NULL)") ?? false
        }
    }

    /// Revokes the token with this id or prefix; whether one was revoked.
    ///
    /// Every live token whose id or prefix equals `idOrPrefix` is revoked; a token already revoked
    /// keeps its first revocation time.
    /// - Parameter idOrPrefix: a token's row id, or its prefix.
    /// - Returns: `true` when at least one live token was revoked.
    /// - Throws: any SQLite error.
    @discardableResult
    public func revokeToken(_ idOrPrefix: String) throws -> Bool {
        try writer.write { db in
            try db.execute(
                sql: """
                    UPDATE token SET revokedAt = ?1
                    WHERE revokedAt IS NULL AND (CAST(id AS TEXT) = ?2 OR prefix = ?2)
                    """,
                arguments: [Date().timeIntervalSince1970, idOrPrefix])
            return db.changesCount > 0
        }
    }
}

extension StoredToken {
    /// A token as stored: its times in seconds since 1970.
    package init(id: Int64, project: String, scope: String, prefix: String, created: Double, revoked: Double?) {
        self.init(
            id: id, project: project, scope: Scope(rawValue: scope) ?? .read, prefix: prefix,
            createdAt: iso8601(created), revokedAt: revoked.map(iso8601))
    }

    init(row: Row) {
        let created: Double = row["createdAt"]
        let revoked: Double? = row["revokedAt"]
        self.init(
            id: row["id"], project: row["project"], scope: Scope(rawValue: row["scope"]) ?? .read,
            prefix: row["prefix"],
            createdAt: iso8601(created), revokedAt: revoked.map(iso8601))
    }
}
