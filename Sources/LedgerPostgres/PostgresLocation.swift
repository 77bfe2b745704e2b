import Foundation

/// Where a PostgreSQL ledger is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with the
/// query parameters `sslmode` (`disable`, `prefer`, the default, `require`, or `verify-full`, which
/// also checks the server's certificate and name) and `search_path`
/// (the schema that holds the ledger's tables, `public` by default).
public struct PostgresLocation: Equatable, Sendable {
    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable {
        case disable, prefer, require
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The schema of the ledger's tables; the server's default when `nil`.
    public var schema: String?

    /// Whether `text` names a PostgreSQL database rather than an SQLite file.
    public static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads a `postgres://` (or `postgresql://`) URL.
    ///
    /// A password in the URL must be percent-encoded (`@` as `%40`, `/` as `%2F`); one given apart,
    /// as `TESTLEDGER_DATABASE_PASSWORD` is, is taken as it is.
    /// - Parameters:
    ///   - text: the URL.
    ///   - password: the password to use when the URL has none; the URL's own wins.
    /// - Throws: ``Problem`` naming what is wrong with it and the form it takes.
    public init(url text: String, password: String? = nil) throws {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw Problem("\(Self.redacting(text)) is not a postgres://USER@HOST[:PORT]/DATABASE URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw Problem("\(Self.redacting(text)) names no host (postgres://USER@HOST[:PORT]/DATABASE)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw Problem("\(Self.redacting(text)) names no user (postgres://USER@HOST[:PORT]/DATABASE)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw Problem("\(Self.redacting(text)) names no database (postgres://USER@HOST[:PORT]/DATABASE)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.user = user
        self.password = components.password ?? password
        self.database = database.removingPercentEncoding ?? database
        self.tls = .prefer
        self.schema = nil
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw Problem("sslmode=\(item.value ?? "") is not one of disable, prefer, require, verify-full")
                }
                tls = mode
            case "search_path":
                guard let schema = item.value, !schema.isEmpty else {
                    throw Problem("search_path needs a schema name")
                }
                self.schema = schema
            default:
                throw Problem("unknown parameter \(item.name) in the database URL (known: sslmode, search_path)")
            }
        }
    }

    /// The URL without its password: what messages and logs show.
    public var redacted: String {
        var text = "postgres://\(user)@\(host):\(port)/\(database)"
        if let schema { text += "?search_path=\(schema)" }
        return text
    }

    /// The text with the password (between the user's `:` and the last `@`) replaced by `***`,
    /// however malformed the rest of the URL is.
    private static func redacting(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
            at.lowerBound > scheme.upperBound,
            let colon = text[scheme.upperBound..<at.lowerBound].firstIndex(of: ":")
        else { return text }
        return text[..<colon] + ":***" + text[at.lowerBound...]
    }

    /// What is wrong with a database URL.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String

        init(_ description: String) { self.description = description }
    }
}
