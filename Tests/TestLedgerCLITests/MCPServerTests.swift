import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// `testledger mcp` driven by a real MCP client (PyPI's `mcp`, `Tests/Fixtures/MCP/client.py`) on a
/// planted history: the answers name the planted flaky tests and their culprits.
@Suite(.enabled(if: InstalledTools.pythonMCP, InstalledTools.pythonMCPSkip))
struct MCPServerTests {
    static let client = CLI.packageRoot.appending(path: "Tests/Fixtures/MCP/client.py").path

    /// Runs the client against `testledger mcp ARGUMENTS` (on `cli`'s ledger unless they name a
    /// server) with `calls`; returns its tools and answers.
    func session(_ cli: CLI, _ calls: [[Any]], _ arguments: [String] = []) async throws
        -> (tools: [String], calls: [[String: Any]])
    {
        let document = try await Self.document(cli, calls, arguments)
        return (document["tools"] as? [String] ?? [], document["calls"] as? [[String: Any]] ?? [])
    }

    /// The client's whole document: the tools and prompts as listed, and the calls' answers.
    static func document(
        _ cli: CLI, _ calls: [[Any]], _ arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: calls), as: UTF8.self)
        let ledger = arguments.contains("--url") ? [] : ["--db", cli.database]
        let output = try await ChildProcess.runTool(
            ["python3", Self.client, json, "--", CLI.binary.path, "mcp"] + ledger + arguments,
            environment: environment, in: cli.directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stderr)")
    }

    func answer(_ call: [String: Any]) throws -> [String: Any] {
        let text = try #require(call["text"] as? String, "\(call)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func anAgentFindsTheFlakyTestsAndWhyTheyFail() async throws {
        let cli = try await CulpritCommandTests().ingested()
        defer { cli.directory.remove() }
        let history = CulpritCommandTests.history
        let spinner = try #require(history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let (tools, calls) = try await session(
            cli,
            [
                ["flaky_tests", ["limit": 50]], ["run_summary", [:] as [String: Any]],
                ["test_detail", ["test": spinner]],
                ["culprit", ["test": spinner]], ["failure_groups", ["limit": 2]], ["slow_tests", ["limit": 3]],
                ["culprit", [:] as [String: Any]], ["flaky_tests", ["limit": "many"]],
                ["test_detail", ["test": "Nope/x"]],
                ["quarantine", ["test": spinner, "action": "add", "reason": "x"]], ["flaky_tests", ["limit": 2]],
            ])
        #expect(
            tools == [
                "flaky_tests", "run_summary", "test_detail", "culprit", "failure_groups", "slow_tests", "trends",
                "status", "selection",
            ])

        let flaky = try answer(calls[0])
        let listed = (flaky["flaky"] as? [[String: Any]] ?? []).compactMap { $0["test"] as? String }
        let planted = history.tests.filter { $0.planted != .stable }.map(\.id)
        #expect(listed.contains(spinner) && Set(listed).isSubset(of: Set(planted)), "\(listed)")
        let spinnerEntry = (flaky["flaky"] as? [[String: Any]])?.first { $0["test"] as? String == spinner }
        #expect((spinnerEntry?["culprit"] as? String)?.contains("`spinner hidden` (predicate)") == true)

        let summary = try answer(calls[1])
        #expect((summary["headline"] as? String)?.contains("tests") == true)
        let shown = try answer(calls[2])
        let detail = try #require(shown["detail"] as? [String: Any])
        #expect(detail["test"] as? String == spinner)
        #expect((shown["history"] as? [Any])?.count == 20)
        let culprit = try #require(try answer(calls[3])["value"] as? [String: Any])
        let top = (culprit["suspects"] as? [[String: Any]])?.first
        #expect(top?["name"] as? String == "spinner hidden" && top?["kind"] as? String == "predicate")
        let groups = try answer(calls[4])
        let group = (groups["value"] as? [[String: Any]])?.first
        #expect((group?["signature"] as? String)?.contains("the feed is not shown") == true, "\(groups)")
        // A list is bounded, and says how many more there are.
        let two = try answer(calls[10])
        #expect((two["flaky"] as? [Any])?.count == 2 && two["more"] as? Int == listed.count - 2)
        let slow = try answer(calls[5])
        #expect(slow["value"] != nil)

        // Bad arguments and unknown tools are MCP errors with a message, and the server goes on.
        for (index, words) in [(6, "test is required"), (7, "limit is a whole number"), (8, "Nope/x"), (9, "no tool")] {
            let error = try #require(calls[index]["error"] as? [String: Any], "\(calls[index])")
            #expect(error["code"] as? Int == -32602)
            #expect((error["message"] as? String)?.contains(words) == true, "\(error)")
        }
    }

    @Test func quarantineChangesOnlyWhenAllowed() async throws {
        let cli = try await CulpritCommandTests().ingested()
        defer { cli.directory.remove() }
        let spinner = try #require(
            CulpritCommandTests.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let (tools, calls) = try await session(
            cli, [["quarantine", ["test": spinner, "action": "add", "reason": "flaky: spinner"]]],
            ["--allow-quarantine"])
        #expect(tools.contains("quarantine"))
        #expect((try answer(calls[0])["changed"] as? [String]) == ["add \(spinner)"], "\(calls)")
        // The help is built from the tools the server offers: each named, and no other.
        let help = try await cli.run(["mcp", "--help"]).stdout
        let section = help.components(separatedBy: "Tools:\n").last?.components(separatedBy: "\n\n").first ?? ""
        let named = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            return name.allSatisfy { $0.isLowercase || $0 == "_" } ? name : nil
        }
        #expect(named == tools + ["reproduce", "verify_fix"], "\(help)")
        let list = try await cli.run(["quarantine", "list"])
        #expect(list.stdout.contains(spinner), "\(list.stdout)")
    }

    /// Against a team's server, an agent gets the answers the ledger itself gives; a read token
    /// cannot change the quarantine, a manage token can.
    @Test func anAgentReadsATeamsServer() async throws {
        let cli = try await CulpritCommandTests().ingested()
        defer { cli.directory.remove() }
        let spinner = try #require(
            CulpritCommandTests.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let server = try await onOwnThread { try ServerProcess(cli) }
        defer { server.stop() }
        let (read, manage) = (try await cli.token("Feed", "read"), try await cli.token("Feed", "manage"))
        let calls: [[Any]] = [
            ["flaky_tests", ["limit": 50]], ["run_summary", [:] as [String: Any]], ["test_detail", ["test": spinner]],
            ["culprit", ["test": spinner]], ["failure_groups", ["limit": 3]], ["slow_tests", ["limit": 3]],
            ["test_detail", ["test": spinner, "attempt": 1]], ["status", ["test": spinner]],
            ["test_detail", ["test": "Nope/x"]],
        ]
        let local = try await session(cli, calls)
        let remote = try await session(
            cli, calls + [["quarantine", ["test": spinner, "action": "add", "reason": "x"]]],
            ["--url", server.url, "--token", read, "--allow-quarantine"])
        for index in 0..<8 {
            let (mine, theirs) = (try answer(local.calls[index]), try answer(remote.calls[index]))
            #expect(
                NSDictionary(dictionary: mine) == NSDictionary(dictionary: theirs),
                "\(calls[index][0]): the ledger answered \(mine)\nthe server answered \(theirs)")
        }
        let flaky = (try answer(remote.calls[0])["flaky"] as? [[String: Any]])?.compactMap { $0["test"] as? String }
        #expect(flaky?.contains(spinner) == true, "\(remote.calls[0])")
        let first = try #require(try answer(remote.calls[6])["detail"] as? [String: Any])
        #expect(first["attempt"] as? Int == 1, "\(first)")
        for (index, words) in [(8, "Nope/x"), (9, "manage token")] {
            let error = try #require(remote.calls[index]["error"] as? [String: Any], "\(remote.calls[index])")
            #expect(error["code"] as? Int == -32602)
            #expect((error["message"] as? String)?.contains(words) == true, "\(error)")
        }

        let managed = try await session(
            cli,
            [
                ["quarantine", ["test": spinner, "action": "add", "reason": "flaky: spinner"]],
                ["quarantine", ["test": "Nope/x", "action": "add", "reason": "typo"]],
            ], ["--url", server.url, "--token", manage, "--allow-quarantine", "--project", "Feed"])
        #expect((try answer(managed.calls[0])["changed"] as? [String]) == ["add \(spinner)"], "\(managed.calls)")
        let typo = try #require(managed.calls[1]["error"] as? [String: Any], "\(managed.calls)")
        #expect((typo["message"] as? String)?.contains("Nope/x") == true, "\(typo)")
        let listed = try #require(try await cli.json(["quarantine", "list"]) as? [[String: Any]])
        #expect(listed.map { "\($0["test"] ?? "") by \($0["by"] ?? "")" } == ["\(spinner) by mcp"], "\(listed)")
    }

    /// Every tool's answer keeps the shape checked in as `Tests/Contracts/mcp-TOOL.shape`, read from
    /// the contract histories as the `--format json` outputs are: an agent's prompts rely on its keys.
    @Test func everyToolsAnswerKeepsItsShape() async throws {
        // A local ledger answers for its newest run's project: the generated history's, then the
        // planted one's alone.
        let shop = try CLI()
        defer { shop.directory.remove() }
        try await JSONContractTests.history(shop)
        let broken = "ShopTests.BrokenTests/test1"
        var (offered, answers) = try await self.answers(
            shop,
            [
                ["flaky_tests", ["limit": 50]], ["run_summary", [:] as [String: Any]],
                ["failure_groups", ["limit": 50]], ["slow_tests", ["limit": 50]],
                ["test_detail", ["test": "ShopTests.PassesonretryTests/test1"]],
                ["test_detail", ["test": broken, "run": JSONContractTests.newest]],
                [
                    "test_detail",
                    ["test": "ShopTests.StableTests/test3", "run": "00000000-0000-4000-8000-000000000046"],
                ],
                ["quarantine", ["test": broken, "action": "add", "reason": "broken", "mode": "skip"]],
                ["status", ["test": broken]], ["status", ["test": "ShopTests.PassesonretryTests/test1"]],
                ["quarantine", ["test": broken, "action": "remove", "reason": "fixed"]],
            ])
        let feed = try CLI()
        defer { feed.directory.remove() }
        let history = JSONContractTests.feed
        let paths = try (history.files() + [JSONContractTests.noiseRun()]).enumerated().map { index, text in
            try feed.directory.write("run\(index).jsonl", text).path
        }
        let ingested = try await feed.run(["ingest"] + paths)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        var calls: [[Any]] = [
            ["flaky_tests", ["limit": 50]], ["failure_groups", ["limit": 50]],
            ["trends", ["since": "2000-01-01", "by": "day"]], ["trends", ["since": "2000-01-01", "by": "run"]],
        ]
        calls += history.runIDs.suffix(12).map { ["run_summary", ["run": $0]] }
        calls += history.tests.flatMap {
            // The whole planted history (40 runs), so that every kind of suspect is named.
            [
                ["culprit", ["test": $0.id, "window": 60]], ["test_detail", ["test": $0.id]],
                ["status", ["test": $0.id]],
            ]
        }
        answers.merge(try await self.answers(feed, calls).answers) { $0 + $1 }
        // Selection reads the newest run's project: a ledger of `record --select` runs alone.
        let cart = try CLI()
        defer { cart.directory.remove() }
        let selectionPaths = try JSONContractTests.selectionRuns().enumerated().map { index, text in
            try cart.directory.write("run\(index).jsonl", text).path
        }
        #expect(try await cart.run(["ingest"] + selectionPaths).status == 0)
        let selection = try await self.answers(cart, [["selection", [:] as [String: Any]]]).answers
        answers.merge(selection) { $0 + $1 }
        let served = try #require(selection["selection"]?.first)
        let printed = try await cart.run(["report", "selection", "--format", "json"])
        #expect(
            JSONValue(jsonText: printed.stdout) == served, "mcp's selection is the report's: \(printed.stdout)")

        #expect(Set(answers.keys) == Set(offered) && offered.count == 10, "every tool answers: \(offered)")
        for (tool, documents) in answers.sorted(by: { $0.key < $1.key }) {
            var shape = JSONShape(
                maps: ["$.detail.captures[].fields"],
                folds: ["$.detail.activities[].children[].children[]": "$.detail.activities[].children[]"],
                enumerations: JSONContractTests.enumerations)
            documents.forEach { shape.add($0) }
            try JSONContractTests.compare(shape, "mcp-" + tool, ["testledger mcp --allow-quarantine: \(tool)"])
        }
    }

    /// Each tool's answers to `calls` on `cli`'s ledger, as JSON; a call that errs fails the test.
    func answers(_ cli: CLI, _ calls: [[Any]]) async throws -> (tools: [String], answers: [String: [JSONValue]]) {
        let (tools, called) = try await session(cli, calls, ["--allow-quarantine"])
        var answers: [String: [JSONValue]] = [:]
        for call in called {
            let text = try #require(call["text"] as? String, "\(call)")
            answers[call["tool"] as? String ?? "", default: []].append(
                try #require(JSONValue(jsonText: text), "\(text)"))
        }
        return (tools, answers)
    }

    /// A server that does not answer is an MCP error naming it, and the MCP server goes on.
    @Test func aSilentServerIsAnError() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (_, calls) = try await session(
            cli, [["flaky_tests", [:] as [String: Any]], ["slow_tests", [:] as [String: Any]]],
            ["--url", "http://127.0.0.1:9", "--token", "tl_x", "--project", "Feed"])
        for call in calls {
            let error = try #require(call["error"] as? [String: Any], "\(call)")
            #expect(error["code"] as? Int == -32603)
            #expect((error["message"] as? String)?.contains("the server could not be read") == true, "\(error)")
        }
        let refused = try await cli.run(["mcp", "--url", "http://127.0.0.1:9", "--token", "tl_x"])
        #expect(
            refused.status != 0 && refused.stderr.contains("could not find the token's project"), "\(refused.stderr)")
        let both = try await cli.run(["mcp", "--url", "http://127.0.0.1:9", "--db", cli.database])
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
    }
}
