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
    /// - Throws: the store's error from storing it.
    public static func create(project: String, scope: StoredToken.Scope, in database: any CredentialStore) throws
        -> String
    {
        let token = secret(prefix: "tl_", bytes: 24)
        _ = try database.addToken(project: project, scope: scope, hash: hash(token), prefix: String(token.prefix(11)))
        return token
    }

    /// `prefix` and `bytes` random bytes from the system's generator, in hex.
    static func secret(prefix: String, bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix
            + (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// The hex SHA-256 a token is stored as.
    /// - Parameter token: the token, as presented.
    /// - Returns: 64 lowercase hex digits.
    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The live token a caller presented, looked up by its hash off the cooperative pool.
    static func live(_ presented: String, in database: any CredentialStore) async throws -> StoredToken? {
        try await Blocking.run { try database.token(hash: hash(presented)) }
    }
}

/// Dashboard sign-ins: the cookie holds a random session id, which the server can end and which
/// expires; the token itself never leaves the login form.
enum Sessions {
    /// Starts a session for `token`; returns the id the browser keeps.
    static func start(_ token: StoredToken, lifetime: Double, in database: any CredentialStore) async throws -> String {
        let id = Tokens.secret(prefix: "ts_", bytes: 32)
        let now = Date().timeIntervalSince1970
        try await Blocking.run {
            try database.startSession(hash: Tokens.hash(id), token: token.id, at: now, lifetime: lifetime)
        }
        return id
    }

    /// The token of the live session a browser presented.
    static func live(_ presented: String, in database: any CredentialStore) async throws -> StoredToken? {
        let now = Date().timeIntervalSince1970
        return try await Blocking.run { try database.sessionToken(hash: Tokens.hash(presented), at: now) }
    }

    /// Ends the session a browser presented.
    static func end(_ presented: String, in database: any CredentialStore) async throws {
        let now = Date().timeIntervalSince1970
        _ = try await Blocking.run { try database.endSession(hash: Tokens.hash(presented), at: now) }
    }
}
