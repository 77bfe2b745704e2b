import Foundation
import LedgerStore
import PostgresNIO

extension PostgresLedger {
    public func startSession(hash: String, token: Int64, at time: Double, lifetime: Double) throws {
        try transaction { session in
            try session.run(
                """
                INSERT INTO session (hash, tokenId, createdAt, expiresAt)
                VALUES (\(hash), \(token), \(time), \(time + lifetime))
                """)
            // Sessions that ended long ago are of no use to anyone.
            try session.run(
                "DELETE FROM session WHERE expiresAt < \(time - 86_400) OR revokedAt < \(time - 86_400)")
        }
    }

    public func sessionToken(hash: String, at time: Double) throws -> StoredToken? {
        try withConnection { session in
            try session.rows(
                """
                SELECT t.id, t.project, t.scope, t.prefix, t.createdAt, t.revokedAt
                FROM session s JOIN token t ON t.id = s.tokenId
                WHERE s.hash = \(hash) AND s.revokedAt IS NULL AND s.expiresAt > \(time) AND t.revokedAt IS NULL
                """
            ).first.map(StoredToken.init(row:))
        }
    }

    @discardableResult
    public func endSession(hash: String, at time: Double) throws -> Bool {
        try withConnection { session in
            try !session.rows(
                "UPDATE session SET revokedAt = \(time) WHERE hash = \(hash) AND revokedAt IS NULL RETURNING 1"
            ).isEmpty
        }
    }
}
