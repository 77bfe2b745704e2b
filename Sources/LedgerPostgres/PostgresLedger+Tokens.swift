import Foundation
import LedgerStore
import PostgresNIO

extension PostgresLedger: CredentialStore {
    @discardableResult
    public func addToken(project: String, scope: StoredToken.Scope, hash: String, prefix: String) throws -> Int64 {
        try withConnection { session in
            try session.value(
                """
                INSERT INTO token (project, scope, hash, prefix, createdAt)
                VALUES (\(project), \(scope.rawValue), \(hash), \(prefix), \(Date().timeIntervalSince1970))
                RETURNING id
                """) ?? 0
        }
    }

    public func token(hash: String) throws -> StoredToken? {
        try tokens(where: "hash = \(hash) AND revokedAt IS NULL").first
    }

    public func tokens() throws -> [StoredToken] {
        try tokens(where: "TRUE")
    }

    private func tokens(where condition: PostgresQuery) throws -> [StoredToken] {
        try withConnection { session in
            try session.rows(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT id, project, scope, prefix, createdAt, revokedAt FROM token WHERE \(condition.sql) "
                        + "ORDER BY id DESC", binds: condition.binds)
            ).map(StoredToken.init(row:))
        }
    }

    public func hasLiveTokens() throws -> Bool {
        try withConnection { try $0.value("SELECT EXISTS (SELECT 1 FROM token WHERE revokedAt IS NULL)") ?? false }
    }

    @discardableResult
    public func revokeToken(_ idOrPrefix: String) throws -> Bool {
        try withConnection { session in
            try !session.rows(
                """
                UPDATE token SET revokedAt = \(Date().timeIntervalSince1970)
                WHERE revokedAt IS NULL AND (id::text = \(idOrPrefix) OR prefix = \(idOrPrefix))
                RETURNING 1
                """
            ).isEmpty
        }
    }
}

extension StoredToken {
    init(row: PostgresRow) throws {
        let (id, project, scope, prefix, created, revoked) = try row.decode(
            (Int64, String, String, String, Double, Double?).self)
        self.init(id: id, project: project, scope: scope, prefix: prefix, created: created, revoked: revoked)
    }
}
