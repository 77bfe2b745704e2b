import Foundation

/// An access token as the store keeps it: never the token itself, only its hash.
public struct StoredToken: Codable, Hashable, Sendable {
    /// What a token allows within its project.
    public enum Scope: String, Codable, Sendable, CaseIterable {
        /// May send results to its project.
        case write
        /// May read its project's results.
        case read
        /// May change its project's quarantine (and read it).
        case manage
    }

    /// The token's row id, which `token revoke` accepts.
    public var id: Int64
    /// The project the token gives access to.
    public var project: String
    /// What the token allows there.
    public var scope: Scope
    /// The token's first characters, to tell tokens apart in lists.
    public var prefix: String
    /// When the token was created (ISO 8601).
    public var createdAt: String
    /// When the token was revoked (ISO 8601); `nil` while it is live.
    public var revokedAt: String?
}
