import Foundation
import GRDB
import LedgerCore

/// An access token as the store keeps it: never the token itself, only its hash.
public struct StoredToken: Codable, Hashable, Sendable {
    public enum Scope: String, Codable, Sendable, CaseIterable {
        /// May send results to its project.
        case write
        /// May read its project's results.
        case read
    }

    public var id: Int64
    public var project: String
    public var scope: Scope
    /// The token's first characters, to tell tokens apart in lists.
    public var prefix: String
    public var createdAt: String
    public var revokedAt: String?
}

extension LedgerDatabase {
    /// Stores a new token's hash; returns its id.
    public func addToken(project: String, scope: StoredToken.Scope, hash: String, prefix: String) throws -> Int64 {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO token (project, scope, hash, prefix, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [project, scope.rawValue, hash, prefix, Date().timeIntervalSince1970])
            return db.lastInsertedRowID
        }
    }

    /// The live (not revoked) token with this hash.
    public func token(hash: String) throws -> StoredToken? {
        try writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM token WHERE hash = ? AND revokedAt IS NULL", arguments: [hash]
            ).map(StoredToken.init(row:))
        }
    }

    /// Every token, newest first.
    public func tokens() throws -> [StoredToken] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM token ORDER BY id DESC").map(StoredToken.init(row:))
        }
    }

    /// Whether any live token exists: a server without one must stay on loopback.
    public func hasLiveTokens() throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM token WHERE revokedAt IS NULL)") ?? false
        }
    }

    /// Revokes the token with this id or prefix; whether one was revoked.
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
    init(row: Row) {
        let created: Double = row["createdAt"]
        let revoked: Double? = row["revokedAt"]
        self.init(
            id: row["id"], project: row["project"], scope: Scope(rawValue: row["scope"]) ?? .read,
            prefix: row["prefix"],
            createdAt: iso8601(created), revokedAt: revoked.map(iso8601))
    }
}
