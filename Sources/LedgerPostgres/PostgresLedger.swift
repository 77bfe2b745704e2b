import Foundation
import LedgerStore
import Logging
import NIOSSL
import PostgresNIO

/// The PostgreSQL store: a team server's ledger that several `testledger serve` processes can
/// share. It keeps the same tables as SQLite's (`Migrations/postgresql/`), and its reports are
/// composed from the same samples.
///
/// Its methods block the calling thread while PostgreSQL answers, as SQLite's do: call them from
/// a thread that may block (a command's main thread, the server's store queue).
public final class PostgresLedger: Sendable {
    /// Where the database is.
    public let location: PostgresLocation
    let client: PostgresClient
    /// A second, small pool for the statements that create tests, each committed on its own, and
    /// for the ids an ingest reserves from the tables' sequences while its own connection copies.
    let testsClient: PostgresClient
    private let running: Task<Void, Never>
    let knownTests = KnownTests()

    /// Two connections per core of this machine, between 8 and 32. An ingest keeps a thread of
    /// this process busy reading the upload while its connection writes it, so more connections
    /// than that only make uploads share the cores (on 2 cores, 32 clients' p99 was 0.65–0.68 s
    /// with 4 connections, 0.74–0.79 s with 8 and 0.76–0.89 s with 20, at the same throughput);
    /// fewer than 8 would let a few large uploads keep token checks and reports waiting.
    public static let defaultConnections = min(32, max(8, 2 * ProcessInfo.processInfo.activeProcessorCount))

    static let logger = Logger(label: "testledger.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// Connects to the database at `location` and migrates it.
    ///
    /// Migrating is safe when other processes open the same database at the same moment: one
    /// migrates under an advisory lock while the others wait for it.
    /// - Parameters:
    ///   - location: the server, database, credentials and TLS mode.
    ///   - maximumConnections: the pool's size; by default ``defaultConnections``.
    /// - Throws: ``StoreError/unreachable(location:reason:)`` when the server cannot be reached,
    ///   ``StoreError/newerSchema(path:unknown:)`` for a database migrated by a newer TestLedger
    ///   (left untouched), ``StoreError/refused(location:reason:)`` for what the server refuses.
    public init(location: PostgresLocation, maximumConnections: Int = defaultConnections) throws {
        self.location = location
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: Self.tls(location.tls))
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(10)
        if let schema = location.schema {
            // Quoted, as CREATE SCHEMA names it: unquoted, PostgreSQL would fold it to lower case.
            configuration.options.additionalStartupParameters = [("search_path", Self.quoted(schema))]
        }
        client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
        configuration.options.maximumConnections = 4
        testsClient = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
        let (client, testsClient) = (self.client, self.testsClient)
        running = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                group.addTask { await testsClient.run() }
            }
        }
        try Self.checkReachable(configuration, location: location)
        try migrate()
    }

    deinit {
        running.cancel()
    }

    private static func tls(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration(mode))
        case .require, .verifyFull: .require(tlsConfiguration(mode))
        }
    }

    /// As libpq: `prefer` and `require` encrypt without checking the server's certificate (a
    /// stock server's is self-signed); `verify-full` checks it and the host name.
    static func tlsConfiguration(_ mode: PostgresLocation.TLSMode) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if mode != .verifyFull { configuration.certificateVerification = .none }
        return configuration
    }

    /// Opens one connection of its own first: the pool would keep retrying an unreachable server.
    private static func checkReachable(_ configuration: PostgresClient.Configuration, location: PostgresLocation)
        throws
    {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch location.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration(location.tls)))
            case .require, .verifyFull: tls = .require(try NIOSSLContext(configuration: tlsConfiguration(location.tls)))
            }
        } catch {
            throw StoreError.unreachable(location: location.redacted, reason: "TLS: \(error)")
        }
        var options = PostgresConnection.Configuration.Options()
        options.connectTimeout = .seconds(10)
        options.additionalStartupParameters = configuration.options.additionalStartupParameters
        var connection = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        connection.options = options
        let opening = connection
        do {
            try waitFor {
                let opened = try await PostgresConnection.connect(
                    configuration: opening, id: 0, logger: Self.logger)
                try await opened.close()
            }
        } catch {
            throw StoreError.unreachable(location: location.redacted, reason: Self.reason(error))
        }
    }

    /// What went wrong, in the server's words when it said something.
    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + state
            }
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown:
                return error.underlying.map { "\($0)" } ?? "the connection failed"
            default:
                return "\(error.code)"
            }
        }
        return "\(error)"
    }

    /// A server's error as a ``StoreError``: text the database cannot hold is the input's fault.
    static func storeError(_ error: PSQLError, location: String) -> StoreError {
        // 22021: a byte sequence the encoding cannot hold (a NUL); 22P05: a character it cannot.
        if let state = error.serverInfo?[.sqlState], ["22021", "22P05"].contains(state) {
            return .unstorable(location: location, reason: reason(error))
        }
        return .refused(location: location, reason: reason(error))
    }

    /// Runs `body` with a connection of the pool, on the calling thread; the server's errors
    /// become ``StoreError``s.
    func withConnection<Result>(_ body: (PostgresSession) throws -> Result) throws -> Result {
        do {
            return try Lease.withConnection(of: client) {
                try body(PostgresSession(connection: $0, location: location.redacted))
            }
        } catch let error as PSQLError {
            throw Self.storeError(error, location: location.redacted)
        } catch let error as LeaseTimeout {
            throw StoreError.unreachable(location: location.redacted, reason: error.description)
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// - Parameters:
    ///   - readOnly: a read-only transaction that sees one snapshot throughout.
    ///   - body: the work, given the transaction's session.
    /// - Returns: what `body` returned.
    /// - Throws: what `body` threw, or the server's errors as ``StoreError``s.
    func transaction<Result>(readOnly: Bool = false, _ body: (PostgresSession) throws -> Result) throws -> Result {
        try withConnection { session in
            // Sent without waiting: the first statement of `body` follows it on the connection.
            try session.send(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
            do {
                let result = try body(session)
                try session.run("COMMIT")
                return result
            } catch {
                try? session.settle()
                try? session.run("ROLLBACK")
                throw error
            }
        }
    }
}
