import Crypto
import Foundation
import LedgerStore

/// Access tokens: random, shown once, stored only as SHA-256 hashes.
public enum Tokens {
    /// Makes a token for `project` and `scope`, stores its hash and returns the token.
    ///
    /// The token is `tl_` and 48 random hex digits; its first 11 characters are stored as its prefix.
    /// - Parameters:
    ///   - project: the project the token gives access to.
    ///   - scope: what it may do there.
    ///   - database: the store that keeps its hash.
    /// - Returns: the token itself, which the store does not keep: it cannot be shown again.
    /// - Throws: any SQLite error from storing it.
    public static func create(project: String, scope: StoredToken.Scope, in database: LedgerDatabase) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = "tl_" + bytes.map { String(format: "%02x", $0) }.joined()
        _ = try database.addToken(project: project, scope: scope, hash: hash(token), prefix: String(token.prefix(11)))
        return token
    }

    /// The hex SHA-256 a token is stored as.
    /// - Parameter token: the token, as presented.
    /// - Returns: 64 lowercase hex digits.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The live token a caller presented, looked up by its hash off the cooperative pool.
    static func live(_ presented: String, in database: LedgerDatabase) async throws -> StoredToken? {
        try await Blocking.run { try database.token(hash: hash(presented)) }
    }
}
