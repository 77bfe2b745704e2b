/// Where the server's access tokens and dashboard sessions are kept: ``LedgerDatabase`` or
/// `PostgresLedger`, beside their results. Tokens and sessions are stored only as hashes.
///
/// Only what authenticates requires it (the server's token middleware, its login routes and
/// `testledger token`); what reads and writes results requires a ``ResultStore``.
///
/// Every method blocks the calling thread until the database answers.
public protocol CredentialStore: Sendable {
    /// Stores a token's hash; returns its row.
    @discardableResult
    func addToken(project: String, scope: StoredToken.Scope, hash: String, prefix: String) throws -> Int64
    /// The live token with this hash.
    func token(hash: String) throws -> StoredToken?
    /// Every token, newest first.
    func tokens() throws -> [StoredToken]
    /// Whether any token is live.
    func hasLiveTokens() throws -> Bool
    /// Revokes the token with this row id or prefix; returns whether one was revoked.
    func revokeToken(_ idOrPrefix: String) throws -> Bool
    /// Starts a dashboard session for a token.
    func startSession(hash: String, token: Int64, at time: Double, lifetime: Double) throws
    /// The token of the live session with this hash.
    func sessionToken(hash: String, at time: Double) throws -> StoredToken?
    /// Ends the session with this hash; returns whether one was live.
    @discardableResult
    func endSession(hash: String, at time: Double) throws -> Bool
}
