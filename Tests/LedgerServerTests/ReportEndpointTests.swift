import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// The read side answers with the JSON the CLI's `--format json` prints.
@Suite struct ReportEndpointTests {
    static func cliJSON(_ value: some Encodable) throws -> Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try JSONSerialization.jsonObject(with: encoder.encode(value))
    }

    /// Three runs of Shop, where `Cart/flips` fails once, and one run of Bank.
    static func seeded(_ server: LiveServer) async throws -> (read: String, runs: [String]) {
        let write = try server.token("Shop", .write)
        var runs: [String] = []
        for (index, flips) in [Outcome.passed, .failed, .passed].enumerated() {
            let script = RunScript(project: "Shop", at: 1_700_000_000 + Double(index) * 3_600).start()
                .pass("Cart/adds").result("Cart/flips", flips).pass("UI/Login/works", duration: 2).end()
            runs.append(script.run)
            #expect(try await server.post("/api/v1/events", token: write, script.ndjson).status == 201)
        }
        let bank = RunScript(project: "Bank").start().pass("Vault/opens").end()
        #expect(
            try await server.post("/api/v1/events", token: try server.token("Bank", .write), bank.ndjson).status == 201)
        return (try server.token("Shop", .read), runs)
    }

    @Test func projectsAndRuns() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let (_, runs) = try await Self.seeded(server)
            let projects = try #require(try await server.get("/api/v1/projects").json() as? [[String: Any]])
            #expect(Set(projects.compactMap { $0["project"] as? String }) == ["Shop", "Bank"])
            let listed = try #require(try await server.get("/api/v1/projects/Shop/runs").json() as? [[String: Any]])
            #expect(listed.compactMap { $0["id"] as? String } == runs.reversed())
            let one = try await server.get("/api/v1/projects/Shop/runs/\(runs[1])")
            #expect(one.status == 200)
            let expected = try Self.cliJSON(try #require(try server.database.run(id: runs[1])))
            #expect(try one.json() as? NSDictionary == expected as? NSDictionary)
            #expect(try await server.get("/api/v1/projects/Bank/runs/\(runs[1])").status == 404)
        }
    }

    /// Each report the server answers is byte for byte what the built `testledger report … --format
    /// json` prints for the same store, but for the one newline `print` ends the CLI's output with.
    @Test func pyramidAndFlakyMatchTheCLI() async throws {
        try await LiveServer.with { server in
            let (read, _) = try await Self.seeded(server)
            for report in ["pyramid", "flaky", "slow", "failures", "cost"] {
                let answer = try await server.get("/api/v1/projects/Shop/\(report)", token: read)
                #expect(answer.status == 200, "\(report): \(answer.body)")
                let printed = try await BuiltCLI.run(
                    ["report", report, "--project", "Shop", "--format", "json"], database: server.databasePath)
                #expect(printed.status == 0, "\(report): \(printed.stderr)")
                let same = Array(printed.stdout.utf8) == Array(answer.body.utf8) + Array("\n".utf8)
                #expect(same, "\(report): the server answered\n\(answer.body)\nthe CLI printed\n\(printed.stdout)")
            }
            let flaky = try await server.get("/api/v1/projects/Shop/flaky", token: read)
            #expect(flaky.body.contains("Cart/flips"), "the reports are not empty: \(flaky.body)")
            #expect(!flaky.body.contains("Vault"))
            let cost = try await server.get("/api/v1/projects/Shop/cost", token: read)
            #expect(cost.body.contains("Cart/flips"), "the flaky test cost something: \(cost.body)")
        }
    }

    @Test func aTestsDetail() async throws {
        try await LiveServer.with { server in
            let (read, runs) = try await Self.seeded(server)
            let detail = try await server.get("/api/v1/projects/Shop/tests/Cart/flips?run=\(runs[1])", token: read)
            #expect(detail.status == 200, "\(detail.body)")
            let json = try #require(try detail.json() as? [String: Any])
            #expect(json["test"] as? String == "Cart/flips")
            #expect(json["outcome"] as? String == "failed")
            #expect(try await server.get("/api/v1/projects/Shop/tests/Vault/opens", token: read).status == 404)
            let first = try await server.get(
                "/api/v1/projects/Shop/tests/Cart/flips?run=\(runs[1])&attempt=1", token: read)
            #expect((try first.json() as? [String: Any])?["attempt"] as? Int == 1, "\(first.body)")
            let path = "/api/v1/projects/Shop/tests/Cart/flips?run=\(runs[1])&attempt="
            #expect(try await server.get(path + "2", token: read).status == 404)
            #expect(try await server.get(path + "0", token: read).status == 400)
        }
    }

    /// A run's report is what `report run RUN --format json` prints; a test's history lists its
    /// attempts in the newest runs; a manage token reads them too.
    @Test func aRunsReportAndATestsHistory() async throws {
        try await LiveServer.with { server in
            let (read, runs) = try await Self.seeded(server)
            let manage = try server.token("Shop", .manage)
            let report = try await server.get("/api/v1/projects/Shop/runs/\(runs[1])/report", token: manage)
            #expect(report.status == 200, "\(report.body)")
            let printed = try await BuiltCLI.run(
                ["report", "run", runs[1], "--format", "json"], database: server.databasePath)
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(
                printed.stdout == report.body + "\n",
                "the server answered\n\(report.body)\nthe CLI printed\n\(printed.stdout)")
            #expect(report.body.contains("Cart/flips"))
            let bank = try #require(try server.database.runs(project: "Bank").first)
            #expect(try await server.get("/api/v1/projects/Shop/runs/\(bank.id)/report", token: read).status == 404)

            let history = try await server.get("/api/v1/projects/Shop/tests/Cart/flips/history?limit=2", token: read)
            let entries = try #require(try history.json() as? [[String: Any]], "\(history.body)")
            #expect(entries.compactMap { $0["run"] as? String } == [runs[2], runs[1]])
            #expect(entries.compactMap { $0["attempts"] as? [String] } == [["passed"], ["failed"]])
            #expect(try await server.get("/api/v1/projects/Shop/tests/Vault/opens/history", token: read).status == 404)
            let bankManager = try server.token("Bank", .manage)
            #expect(try await server.get("/api/v1/projects/Shop/flaky", token: bankManager).status == 403)
            #expect(try await server.get("/api/v1/projects/Bank/flaky", token: bankManager).status == 200)
        }
    }

    @Test func aRunOfAnotherProjectOrNoneIs404() async throws {
        try await LiveServer.with { server in
            let (read, _) = try await Self.seeded(server)
            let bank = try #require(try server.database.runs(project: "Bank").first)
            let crossed = try await server.get("/api/v1/projects/Shop/pyramid?run=\(bank.id)", token: read)
            #expect(crossed.status == 404, "\(crossed.body)")
            #expect(!crossed.body.contains("Vault"))
            let empty = try server.token("Empty", .read)
            #expect(try await server.get("/api/v1/projects/Empty/pyramid", token: empty).status == 404)
            #expect(try await server.get("/api/v1/projects/Empty/flaky", token: empty).status == 200)
        }
    }

    @Test func countsAreKeptInRange() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            _ = try await Self.seeded(server)
            for limit in ["1", "0", "-1"] {
                let runs = try #require(
                    try await server.get("/api/v1/projects/Shop/runs?limit=\(limit)").json() as? [[String: Any]])
                #expect(runs.count == 1, "limit=\(limit)")
            }
        }
    }

    @Test func aBadSinceIs400() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let answer = try await server.get("/api/v1/projects/Shop/flaky?since=yesterday")
            #expect(answer.status == 400)
            #expect(answer.body.contains("14d"))
        }
    }

    @Test func healthAndMetrics() async throws {
        try await LiveServer.with { server in
            _ = try await Self.seeded(server)
            #expect(try await server.get("/healthz").status == 200)
            _ = try await server.post("/api/v1/events", token: try server.token("Shop", .write), "{broken")
            let metrics = try await server.get("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.headers.first(name: "Content-Type")?.hasPrefix("text/plain") == true)
            #expect(metrics.body.contains("testledger_ingested_results_total 10"))
            #expect(metrics.body.contains("testledger_rejected_inputs_total 1"))
            #expect(metrics.body.contains(#"testledger_http_requests_total{route="/api/v1/events",status="201"} 4"#))
            #expect(metrics.body.contains("testledger_http_request_duration_seconds_count"))
        }
    }
}
