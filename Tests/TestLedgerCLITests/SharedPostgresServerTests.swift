import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import Testing

/// Two `testledger serve` processes on one PostgreSQL database take uploads at once: the
/// database's constraints and locks, not a process's, keep every result once.
@Suite(.enabled(if: TestPostgres.available, "needs TESTLEDGER_TEST_DATABASE_URL (a PostgreSQL server)"))
struct SharedPostgresServerTests {
    @Test func fiftyConcurrentUploadsToTwoServersStoreEachResultOnce() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let postgres = try #require(TestPostgres.freshURL())
        defer { TestPostgres.drop(postgres) }
        let onPostgres = ["TESTLEDGER_DATABASE_URL": postgres]
        let created = try await cli.run(
            ["token", "create", "--project", "Shop", "--scope", "write"], environment: onPostgres)
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .newlines)
        let servers = [try ServerProcess(cli, database: postgres), try ServerProcess(cli, database: postgres)]
        defer { for server in servers { server.stop() } }

        // 20 runs of 40 tests, each sent to both servers at once; one more run of 300 tests sent
        // in 10 live parts, to both servers by turns; all 50 uploads under way together.
        var bodies: [(server: Int, path: String, body: String)] = []
        for run in 0..<20 {
            var script = RunScript(project: "Shop", at: 1_790_000_000 + Double(run) * 600).start()
            for test in 0..<40 {
                script = test % 9 == 0 ? script.fail("Cart/test\(test)") : script.pass("Cart/test\(test)")
            }
            let body = script.end().ndjson
            bodies += [(0, "/api/v1/events", body), (1, "/api/v1/events", body)]
        }
        let shared = RunScript(project: "Shop", at: 1_790_100_000)
        for part in 0..<10 {
            var script = shared.start()
            for test in (part * 30)..<(part * 30 + 30) { script = script.pass("Checkout/test\(test)") }
            bodies.append((part % 2, "/api/v1/events?live=1", script.ndjson))
        }
        #expect(bodies.count == 50)
        let answers = try await withThrowingTaskGroup(of: (status: Int, stored: Int, already: Int).self) { group in
            for upload in bodies {
                group.addTask {
                    var request = HTTPClientRequest(url: servers[upload.server].url + upload.path)
                    request.method = .POST
                    request.headers.add(name: "Authorization", value: "Bearer \(token)")
                    request.body = .bytes(ByteBuffer(string: upload.body))
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                    let body = try await response.body.collect(upTo: 1 << 20)
                    let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
                    return (
                        Int(response.status.code), json?["results"] as? Int ?? 0, json?["alreadyStored"] as? Int ?? 0
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0.status == 201 }, "\(answers.filter { $0.status != 201 })")
        let stored = answers.map(\.stored).reduce(0, +)
        let already = answers.map(\.already).reduce(0, +)
        #expect(stored == 20 * 40 + 300, "each result is stored by exactly one upload")
        #expect(already == 20 * 40, "and the other copy of each run finds it there")

        let runs = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    try await cli.run(["runs", "--limit", "100", "--format", "json"], environment: onPostgres).stdout
                        .utf8)) as? [[String: Any]])
        let tests = Dictionary(uniqueKeysWithValues: runs.map { ($0["id"] as? String ?? "", $0["tests"] as? Int ?? 0) })
        let failed = runs.map { $0["failed"] as? Int ?? 0 }
        #expect(tests.count == 21)
        #expect(tests.values.reduce(0, +) == 1_100)
        #expect(tests[shared.run] == 300)
        #expect(failed.sorted() == [0] + Array(repeating: 5, count: 20))
    }

    @Test func anUploadPostgreSQLCannotHoldIsABadRequestAndStoresNothing() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let postgres = try #require(TestPostgres.freshURL())
        defer { TestPostgres.drop(postgres) }
        let created = try await cli.run(
            ["token", "create", "--project", "Shop", "--scope", "write"],
            environment: ["TESTLEDGER_DATABASE_URL": postgres])
        let token = created.stdout.trimmingCharacters(in: .newlines)
        let server = try ServerProcess(cli, database: postgres)
        defer { server.stop() }
        let script = RunScript(project: "Shop").start().fail("Cart/testNul").end()
        let body = script.ndjson.replacingOccurrences(
            of: #""outcome":"failed""#, with: #""outcome":"failed","message":"a\u0000b""#)
        #expect(body.contains("\\u0000"))
        var request = HTTPClientRequest(url: server.url + "/api/v1/events")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        #expect(response.status.code == 400, "\(text)")
        #expect(text.contains("cannot store this input") && text.contains("0x00"), "\(text)")
        let runs = try await cli.run(["runs", "--format", "json"], environment: ["TESTLEDGER_DATABASE_URL": postgres])
        #expect(
            runs.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || runs.stdout.contains("[]"),
            "\(runs.stdout)")
    }
}
