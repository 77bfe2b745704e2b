import Foundation
import GRDB
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct AccessTests {
    let events = RunScript(project: "Shop").start().pass("Cart/adds").end().ndjson

    @Test func sendingWithoutATokenIs401() async throws {
        try await LiveServer.with { server in
            #expect(try await server.post("/api/v1/events", token: nil, events).status == 401)
            #expect(try await server.post("/api/v1/events", token: "tl_made_up", events).status == 401)
            let basic = try await server.post(
                "/api/v1/events", token: nil, events, headers: [("Authorization", "Basic eDp5")])
            #expect(basic.status == 401)
            #expect(try server.database.runs().isEmpty)
        }
    }

    @Test func aReadTokenCannotSend() async throws {
        try await LiveServer.with { server in
            let answer = try await server.post("/api/v1/events", token: try server.token("Shop", .read), events)
            #expect(answer.status == 403)
            #expect(try server.database.runs().isEmpty)
        }
    }

    @Test func readingNeedsAReadTokenOfThatProject() async throws {
        try await LiveServer.with { server in
            _ = try await server.post("/api/v1/events", token: try server.token("Shop", .write), events)
            let mine = try server.token("Shop", .read)
            let theirs = try server.token("Bank", .read)
            #expect(try await server.get("/api/v1/projects/Shop/runs").status == 401)
            #expect(try await server.get("/api/v1/projects/Shop/runs", token: theirs).status == 403)
            #expect(try await server.get("/api/v1/projects/Shop/runs", token: mine).status == 200)
            let visible = try await server.get("/api/v1/projects", token: theirs)
            #expect(visible.status == 200)
            #expect(!visible.body.contains("Shop"))
        }
    }

    @Test func aWriteTokenSendsButDoesNotRead() async throws {
        try await LiveServer.with { server in
            let write = try server.token("Shop", .write)
            #expect(try await server.post("/api/v1/events", token: write, events).status == 201)
            #expect(try await server.get("/api/v1/projects/Shop/runs", token: write).status == 403)
            #expect(try await server.get("/api/v1/projects", token: write).status == 403)
            #expect(try await server.get("/projects/Shop", token: write).status == 403)
        }
    }

    @Test func aProjectNameWithSpacesAndAccentsIsOneProject() async throws {
        try await LiveServer.with { server in
            let name = "Café App/iOS"
            let stream = RunScript(project: name).start().pass("Cart/adds").end().ndjson
            #expect(
                try await server.post("/api/v1/events", token: try server.token(name, .write), stream).status == 201)
            let read = try server.token(name, .read)
            let path = try #require(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let runs = try await server.get("/api/v1/projects/\(path)/runs", token: read)
            #expect(runs.status == 200, "\(runs.body)")
            let listed = try #require(try runs.json() as? [[String: Any]])
            #expect(listed.map { $0["project"] as? String } == [name])
            #expect(try await server.get("/projects/\(path)", token: read).status == 200)
        }
    }

    @Test func aRevokedTokenIs401() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            #expect(try await server.post("/api/v1/events", token: token, events).status == 201)
            let listed = try #require(try server.database.tokens().first)
            #expect(try server.database.revokeToken(listed.prefix))
            #expect(try await server.post("/api/v1/events", token: token, events).status == 401)
        }
    }

    /// A token whose hex SHA-256 was computed apart from TestLedger:
    /// `printf %s TOKEN | sha256sum`.
    static let fixedToken = "tl_000102030405060708090a0b0c0d0e0f1011121314151617"
    static let fixedTokenSHA256 = "8e42a6a932ba64f1d8818ec989c62b3f59b8169bca664826e136087d93eca419"

    @Test func tokensAreStoredOnlyAsHashes() async throws {
        // The hash is SHA-256 in lowercase hex: FIPS 180-2's known answer for "abc".
        #expect(Tokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Tokens.hash(Self.fixedToken) == Self.fixedTokenSHA256)
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            #expect(token.hasPrefix("tl_"))
            #expect(token.count > 40)
            let stored = try #require(try server.database.tokens().first)
            #expect(token.hasPrefix(stored.prefix))
            #expect(stored.prefix.count < 16)
            #expect(try server.database.token(hash: Tokens.hash(token))?.id == stored.id)
            #expect(try server.database.token(hash: token) == nil)

            // The token table as SQLite holds it, read on a connection of its own.
            var readOnly = Configuration()
            readOnly.readonly = true
            let rows = try DatabaseQueue(path: server.databasePath, configuration: readOnly).read { db in
                try Row.fetchAll(db, sql: "SELECT hash, prefix FROM token")
            }
            #expect(rows.count == 1)
            let hash: String = try #require(rows.first?["hash"])
            #expect(hash == Tokens.hash(token), "the stored hash is the token's SHA-256")
            #expect(rows.first?["prefix"] == String(token.prefix(11)))

            // The bytes on disk: neither the database file nor its write-ahead log holds the token,
            // or its secret part after the stored prefix; the scan does see the hash.
            let files = [server.databasePath, server.databasePath + "-wal"]
            let bytes = files.compactMap { FileManager.default.contents(atPath: $0) }
            #expect(!bytes.isEmpty)
            for needle in [token, String(token.dropFirst(11))] {
                #expect(!bytes.contains { $0.range(of: Data(needle.utf8)) != nil }, "\(needle) is stored")
            }
            #expect(bytes.contains { $0.range(of: Data(hash.utf8)) != nil }, "the scan reads what is stored")

            // A token whose hash is stored as computed apart is the one the server accepts.
            _ = try server.database.addToken(
                project: "Shop", scope: .write, hash: Self.fixedTokenSHA256, prefix: String(Self.fixedToken.prefix(11)))
            #expect(try await server.post("/api/v1/events", token: Self.fixedToken, events).status == 201)
        }
    }

    @Test func publicReadOpensTheReadSideOnly() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            _ = try await server.post("/api/v1/events", token: try server.token("Shop", .write), events)
            #expect(try await server.get("/api/v1/projects/Shop/runs").status == 200)
            #expect(try await server.get("/api/v1/projects").body.contains("Shop"))
            #expect(try await server.post("/api/v1/events", token: nil, events).status == 401)
        }
    }

    @Test func servingBeyondLoopbackWithoutATokenIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try LedgerDatabase(path: directory.path("ledger.sqlite"))
        let open = ServerConfiguration(host: "0.0.0.0", port: 0)
        #expect(throws: ServerError.openWithoutTokens(host: "0.0.0.0")) {
            _ = try LedgerServer.application(database: database, configuration: open)
        }
        _ = try Tokens.create(project: "Shop", scope: .read, in: database)
        _ = try LedgerServer.application(database: database, configuration: open)
        #expect(ServerConfiguration(host: "127.0.0.1").isLoopback)
        #expect(ServerConfiguration(host: "::1").isLoopback)
        #expect(!ServerConfiguration(host: "10.0.0.2").isLoopback)
    }
}
