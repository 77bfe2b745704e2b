import Crypto
import Foundation
import LedgerStore

/// Access tokens: random, shown once, stored only as SHA-256 hashes.
public enum Tokens {
    /// Makes a token for `project` and `scope`, stores its hash and returns the token.
    public static func create(project: String, scope: StoredToken.Scope, in database: LedgerDatabase) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = "tl_" + bytes.map { String(format: "%02x", $0) }.joined()
        _ = try database.addToken(project: project, scope: scope, hash: hash(token), prefix: String(token.prefix(11)))
        return token
    }

    /// The hex SHA-256 a token is stored as.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The live token a caller presented, looked up by its hash off the cooperative pool.
    static func live(_ presented: String, in database: LedgerDatabase) async throws -> StoredToken? {
        try await Blocking.run { try database.token(hash: hash(presented)) }
    }
}
