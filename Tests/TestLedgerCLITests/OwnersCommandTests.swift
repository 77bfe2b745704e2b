import Foundation
import LedgerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Owners from the checkout's CODEOWNERS and `.testledger.yml`, in every report that names tests,
/// kept in the ledger for reports made away from the checkout and sent to a server by `upload`.
@Suite struct OwnersCommandTests {
    /// Three tests in two files; `flaky` fails on odd days, `tax` from day 3 on.
    func junit(_ cli: CLI, day: Int) throws -> URL {
        func test(_ name: String, _ file: String, failing: Bool) -> String {
            #"<testcase classname="App.Cart" name="\#(name)" file="\#(file)">"#
                + (failing ? #"<failure message="\#(name) failed at 0x7ffd"/>"# : "") + "</testcase>"
        }
        let cases = [
            test("tax", "Tests/Checkout/CartTests.swift", failing: day >= 3),
            test("flaky", "/Users/runner/work/App/App/Tests/Checkout/CartTests.swift", failing: day % 2 == 1),
            test("login", "AppUITests/LoginTests.swift", failing: day % 2 == 1),
        ]
        return try cli.directory.write(
            "day\(day).xml",
            #"<testsuite name="s" timestamp="2026-10-1\#(day)T10:00:00Z">"# + cases.joined() + "</testsuite>")
    }

    func checkout(_ cli: CLI) throws {
        try cli.directory.write(".github/CODEOWNERS", "*  @acme/app\n/Tests/Checkout/ @acme/shop\n")
        try cli.directory.write(
            ".testledger.yml", "owners:\n  - pattern: \"App.Cart/login\"\n    owners: [\"@acme/ui\", \"@Lead\"]\n")
        try cli.directory.write("Tests/.keep", "")
        try cli.directory.write("AppUITests/.keep", "")
    }

    @Test func reportsNameOwnersAndFilterByOne() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try checkout(cli)
        for day in 0..<6 {
            let ingested = try await cli.run(
                [
                    "ingest", "--project", "Shop", "--branch", day == 5 ? "feature" : "main",
                    try junit(cli, day: day).path,
                ])
            #expect(ingested.status == 0, "\(ingested.stderr)")
        }
        let flaky = try #require(try await cli.json(["report", "flaky"]) as? [String: Any])
        let owned = try #require(flaky["flaky"] as? [[String: Any]]).map {
            "\($0["test"] ?? "") \(($0["owners"] as? [String]) ?? [])"
        }
        #expect(
            owned.sorted() == ["App.Cart/flaky [\"@acme/shop\"]", "App.Cart/login [\"@acme/ui\", \"@Lead\"]"],
            "\(flaky)")

        let shop = try #require(try await cli.json(["report", "flaky", "--owner", "@ACME/shop"]) as? [String: Any])
        #expect((shop["flaky"] as? [[String: Any]])?.map { $0["test"] as? String } == ["App.Cart/flaky"])
        let table = try await cli.run(["report", "flaky", "--owner", "@lead"])
        #expect(table.stdout.contains("owners") && table.stdout.contains("@acme/ui @Lead"), "\(table.stdout)")
        #expect(!table.stdout.contains("App.Cart/flaky"))

        let run = try #require(try await cli.json(["report", "run", "--base", "main"]) as? [String: Any])
        let failures = try #require(run["failures"] as? [[String: Any]])
        #expect(failures.count == 3)
        #expect(failures.allSatisfy { ($0["owners"] as? [String])?.isEmpty == false }, "\(failures)")
        let mine = try #require(
            try await cli.json(["report", "run", "--owner", "@acme/shop"]) as? [String: Any])
        #expect(
            (mine["failures"] as? [[String: Any]])?.compactMap { $0["test"] as? String }.sorted()
                == ["App.Cart/flaky", "App.Cart/tax"])
        let markdown = try await cli.run(["report", "run", "--format", "markdown"])
        #expect(markdown.stdout.contains("| owners |") && markdown.stdout.contains("@acme/shop |"))

        let groups = try #require(
            try await cli.json(["report", "failures", "--owner", "@acme/ui"]) as? [[String: Any]])
        #expect(groups.count == 1 && (groups.first?["tests"] as? [String]) == ["App.Cart/login"], "\(groups)")

        let shown = try await cli.run(["show", "App.Cart/tax"])
        #expect(shown.stdout.contains("owners: @acme/shop"), "\(shown.stdout)")

        // Away from the checkout, the ledger's copy names the same owners.
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.remove() }
        let away = try await ChildProcess.run(
            CLI.binary, ["show", "App.Cart/tax", "--format", "json"],
            environment: ChildProcess.cleanEnvironment().merging(["TESTLEDGER_DB": cli.database]) { _, new in new },
            in: elsewhere.url)
        let detail = try #require(try JSONSerialization.jsonObject(with: Data(away.stdout.utf8)) as? [String: Any])
        #expect(detail["owners"] as? [String] == ["@acme/shop"], "\(away.stdout) \(away.stderr)")
    }

    @Test func withoutOwnersReportsStayAsTheyWere() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        for day in 0..<3 {
            #expect(try await cli.run(["ingest", "--project", "Shop", try junit(cli, day: day).path]).status == 0)
        }
        let flaky = try await cli.run(["report", "flaky", "--format", "json"])
        #expect(flaky.status == 0 && !flaky.stdout.contains("owners"), "\(flaky.stdout)")
        let table = try await cli.run(["report", "flaky"])
        #expect(!table.stdout.contains("owners"))
    }

    @Test func uploadSendsTheOwnersToTheServer() async throws {
        let server = try CLI()
        defer { server.directory.remove() }
        let token = try await server.token("Shop", "write")
        let process = try ServerProcess(server, ["--public-read"])
        defer { process.stop() }
        let ci = try CLI()
        defer { ci.directory.remove() }
        try checkout(ci)
        for day in 0..<4 {
            let sent = try await ci.run(
                ["upload", "--project", "Shop", try junit(ci, day: day).path],
                environment: ["TESTLEDGER_URL": process.url, "TESTLEDGER_TOKEN": token])
            #expect(sent.status == 0 && sent.stderr.isEmpty, "\(sent.stderr)")
        }
        let (data, _) = try await URLSession.shared.data(
            from: try #require(URL(string: process.url + "/api/v1/projects/Shop/flaky?owner=@acme/ui")))
        let flaky = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tests = try #require(flaky["flaky"] as? [[String: Any]])
        #expect(tests.map { $0["test"] as? String } == ["App.Cart/login"], "\(flaky)")
        #expect(tests.first?["owners"] as? [String] == ["@acme/ui", "@Lead"])
    }
}
