import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import NIOCore
import NIOHTTP1

/// The real server on an ephemeral loopback port, with a real store in a temporary folder, and
/// a real HTTP client to talk to it.
struct LiveServer: Sendable {
    struct Answer {
        var status: Int
        var body: String
        var headers: HTTPHeaders

        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body.utf8)) }
    }

    let base: String
    let database: LedgerDatabase
    /// The store's file, for what reads it other than through `database` (the CLI, its bytes).
    let databasePath: String
    let metrics: ServerMetrics

    /// A server whose read side needs no token.
    static let publicRead = ServerConfiguration(port: 0, publicRead: true)

    /// Runs `body` against a fresh server, stopped afterwards.
    static func with<T: Sendable>(
        _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
        prepare: @Sendable (LedgerDatabase) throws -> Void = { _ in },
        _ body: @Sendable (LiveServer) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("ledger.sqlite")
        let database = try LedgerDatabase(path: path)
        try prepare(database)
        let metrics = ServerMetrics()
        return try await LedgerServer.running(database, configuration: configuration, metrics: metrics) { port in
            try await body(
                LiveServer(
                    base: "http://127.0.0.1:\(port)", database: database, databasePath: path, metrics: metrics))
        }
    }

    /// Sends one request and reads the whole answer.
    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, body: [UInt8]? = nil,
        headers: [(String, String)] = [], client: HTTPClient = .shared
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let text = String(buffer: try await response.body.collect(upTo: 64 << 20))
        return Answer(status: Int(response.status.code), body: text, headers: response.headers)
    }

    func get(_ path: String, token: String? = nil) async throws -> Answer {
        try await send(.GET, path, token: token)
    }

    func post(_ path: String, token: String?, _ text: String, headers: [(String, String)] = []) async throws -> Answer {
        try await send(.POST, path, token: token, body: Array(text.utf8), headers: headers)
    }

    /// Sends `bytes` as a gzip-encoded body, compressed or not.
    func postGzip(_ path: String, token: String?, _ bytes: [UInt8]) async throws -> Answer {
        try await send(.POST, path, token: token, body: bytes, headers: [("Content-Encoding", "gzip")])
    }

    /// Makes a token in the server's store.
    func token(_ project: String, _ scope: StoredToken.Scope) throws -> String {
        try Tokens.create(project: project, scope: scope, in: database)
    }

    /// How many attempts the store holds.
    func storedResults() throws -> Int {
        try database.runs(limit: 10_000).reduce(0) { $0 + $1.tests }
    }
}
