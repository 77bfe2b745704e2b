import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import Testing

/// `.testledger.yml`'s `window` is read by every door: `report flaky`, the server's API and
/// dashboard, and MCP judge the same runs and give the same verdicts.
@Suite(.enabled(if: InstalledTools.pythonMCP, InstalledTools.pythonMCPSkip))
struct WindowAcrossDoorsTests {
    static let intermittent = "App/intermittent"

    /// 60 runs, oldest first: `App/intermittent` fails in four of the oldest 30 only, `App/recent`
    /// in four of the newest 30, `App/both` in four of each, `App/steady` never.
    static func history() -> String {
        (0..<60).map { index in
            var script = RunScript(
                run: String(format: "00000000-0000-4000-8000-%012x", index), at: 1_700_000_000 + Double(index) * 3_600
            ).start().pass("App/steady")
            script = [5, 11, 17, 23].contains(index) ? script.fail(intermittent) : script.pass(intermittent)
            script = [40, 45, 50, 55].contains(index) ? script.fail("App/recent") : script.pass("App/recent")
            script = [3, 9, 15, 21, 33, 39, 45, 51].contains(index) ? script.fail("App/both") : script.pass("App/both")
            return script.end().ndjson
        }.joined()
    }

    /// The tests a flaky report lists under `key` (`flaky` or `recovered`), however it lists them.
    static func tests(_ report: Any?, _ key: String = "flaky") -> [String] {
        let listed = (report as? [String: Any])?[key]
        let names = (listed as? [String]) ?? (listed as? [[String: Any]] ?? []).compactMap { $0["test"] as? String }
        return names.sorted()
    }

    @Test func sixtyRunsAreJudgedTheSameByTheCLITheAPITheDashboardAndMCP() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("history.ndjson", Self.history())
        #expect(try await cli.run(["ingest", "history.ndjson"]).status == 0)
        // With the default window, the oldest 30 runs are not judged: no failure of it is seen.
        let byDefault = try await cli.json(["report", "flaky"])
        #expect(Self.tests(byDefault) == ["App/both", "App/recent"])
        #expect(Self.tests(byDefault, "recovered").isEmpty)

        try cli.directory.write(".testledger.yml", "flaky:\n  window: 60\n")
        let command = try await cli.json(["report", "flaky"]) as? [String: Any]
        #expect(command?["runs"] as? Int == 60)
        let (flaky, recovered) = (Self.tests(command), Self.tests(command, "recovered"))
        #expect(flaky == ["App/both"] && recovered == [Self.intermittent], "\(String(describing: command))")

        let server = try ServerProcess(cli, ["--public-read"])
        defer { server.stop() }
        let api = try await Self.get(server.url + "/api/v1/projects/Demo/flaky")
        let answer = try JSONSerialization.jsonObject(with: Data(api.utf8)) as? [String: Any]
        #expect(answer?["runs"] as? Int == 60)
        #expect(Self.tests(answer) == flaky && Self.tests(answer, "recovered") == recovered)
        let page = try await Self.get(server.url + "/projects/Demo")
        #expect(page.contains("Flaky tests: \(flaky.count) over the last 60 run(s)"), "\(page.prefix(3_000))")
        #expect(page.contains("Recovered: 1") && page.contains(">\(Self.intermittent)</a>"))
        #expect(flaky.allSatisfy { page.contains(">\($0)</a>") })

        let (_, calls) = try await MCPServerTests().session(cli, [["flaky_tests", ["limit": 50]]])
        let mcp = try JSONSerialization.jsonObject(with: Data((try #require(calls.first?["text"] as? String)).utf8))
        // MCP's answer is bounded to the flaky and broken tests.
        #expect((mcp as? [String: Any])?["runs"] as? Int == 60 && Self.tests(mcp) == flaky, "\(mcp)")
    }

    static func get(_ url: String) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        #expect(response.status == .ok, "\(url): \(response.status)")
        return String(buffer: try await response.body.collect(upTo: 16 << 20))
    }
}
