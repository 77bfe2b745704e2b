import Foundation
import LedgerTestSupport
import Testing

@Suite struct ReportRunCommandTests {
    func junit(_ cli: CLI, _ name: String, day: Int, failing: [String]) throws -> URL {
        let cases = ["tax", "total", "refund"].map { test in
            failing.contains(test)
                ? #"<testcase classname="App.Cart" name="\#(test)"><failure message="\#(test) is off by one"/></testcase>"#
                : #"<testcase classname="App.Cart" name="\#(test)"/>"#
        }
        return try cli.directory.write(
            name, #"<testsuite name="s" timestamp="2026-10-1\#(day)T10:00:00Z">"# + cases.joined() + "</testsuite>")
    }

    @Test func recordExplainsItsFailuresAndWritesTheJobSummary() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        // refund fails both main runs: failing on main, and too few runs to be flaky or broken.
        for (day, failing) in [(0, ["refund"]), (1, ["refund"])] {
            let file = try junit(cli, "main\(day).xml", day: day, failing: failing)
            let ingested = try await cli.run(["ingest", "--project", "Shop", "--branch", "main", file.path])
            #expect(ingested.status == 0, "\(ingested.stderr)")
        }
        let summary = cli.directory.path("summary.md")
        try "# Earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        let results = try junit(cli, "out/feature.xml", day: 2, failing: ["tax", "refund"])
        let recorded = try await cli.run(
            [
                "record", "--project", "Shop", "--branch", "feature", "--junit", results.path, "--", "sh", "-c",
                "exit 1",
            ],
            environment: ["GITHUB_STEP_SUMMARY": summary, "GITHUB_BASE_REF": "main"])
        #expect(recorded.status == 1)
        #expect(recorded.stdout.contains("2 failure(s) in 3 tests: 1 new, 1 failing on base too"), "\(recorded.stdout)")
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written.hasPrefix("# Earlier step\n### TestLedger: 2 failure(s) in 3 tests"), "appended: \(written)")
        #expect(written.contains("| **new** | `App.Cart/tax` | never failed on main before | tax is off by one |"))
        #expect(written.contains("| **failing on base too** | `App.Cart/refund` |"))

        let json = try #require(try await cli.json(["report", "run", "--base", "main"]) as? [String: Any])
        let failures = try #require(json["failures"] as? [[String: Any]])
        #expect(failures.map { $0["verdict"] as? String } == ["new", "failing-on-base"])
        #expect(json["base"] as? String == "main" && json["branch"] as? String == "feature")
        let markdown = try await cli.run(
            ["report", "run", "--format", "markdown"], environment: ["TESTLEDGER_URL": "https://ledger.example"])
        #expect(markdown.stdout.contains("(https://ledger.example/projects/Shop/tests/App.Cart%2Ftax?run="))
    }
}
