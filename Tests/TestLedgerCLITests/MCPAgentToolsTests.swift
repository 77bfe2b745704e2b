import Foundation
import LedgerTestSupport
import Testing

/// What `testledger mcp` tells an agent of each tool (MCP's hints, an output schema) and how its
/// answers keep to them, checked by PyPI's `mcp` client with `jsonschema`; the prompts; and the
/// tools that run tests, only with `--allow-run`.
@Suite(.enabled(if: InstalledTools.pythonMCP, InstalledTools.pythonMCPSkip))
struct MCPAgentToolsTests {
    /// A test's page on a team's dashboard.
    static func address(of test: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/")
        let path = test.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0)
        }
        return "https://ledger.example/projects/Feed/tests/" + path.joined(separator: "/")
    }

    @Test func everyToolIsListedWithItsHintsAndSchemaAndEachAnswerFitsBoth() async throws {
        let cli = try await CulpritCommandTests().ingested()
        defer { cli.directory.remove() }
        let spinner = try #require(
            CulpritCommandTests.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let calls: [[Any]] = [
            ["flaky_tests", ["limit": 50, "max_bytes": 1_500]],
            ["flaky_tests", ["limit": 50, "max_bytes": 1_000_000]],
            ["run_summary", [:] as [String: Any]], ["test_detail", ["test": spinner]],
            ["test_detail", ["test": Self.address(of: spinner)]], ["culprit", ["test": spinner]],
            ["culprit", ["test": Self.address(of: spinner)]], ["failure_groups", ["limit": 50]],
            ["slow_tests", ["limit": 50]], ["status", ["test": spinner]],
            ["status", ["test": Self.address(of: spinner)]], ["selection", [:] as [String: Any]],
            ["trends", ["since": "2000-01-01"]],
        ]
        let document = try await MCPServerTests.document(cli, calls, ["--allow-quarantine"])
        let listed = try #require(document["listed"] as? [[String: Any]])
        #expect(listed.count == 10)
        for tool in listed {
            let name = tool["name"] as? String ?? ""
            let hints = try #require(tool["annotations"] as? [String: Any], "\(name)")
            let reads = name != "quarantine"
            #expect(hints["readOnlyHint"] as? Bool == reads, "\(name): \(hints)")
            #expect(hints["destructiveHint"] as? Bool == false && hints["openWorldHint"] as? Bool == false)
            #expect(hints["idempotentHint"] as? Bool == true)
            let schema = try #require(tool["outputSchema"] as? [String: Any], "\(name)")
            #expect(schema["type"] as? String == "object" && !(schema["required"] as? [String] ?? []).isEmpty)
            let inputs = (tool["inputSchema"] as? [String: Any])?["properties"] as? [String: Any] ?? [:]
            #expect((inputs["max_bytes"] != nil) == reads, "\(name) \(inputs.keys)")
        }

        let answers = try #require(document["calls"] as? [[String: Any]])
        for (index, answer) in answers.enumerated() {
            #expect(answer["schemaErrors"] as? [String] == [], "\(calls[index][0]): \(answer)")
            let bytes = (answer["text"] as? String ?? "").utf8.count
            #expect(bytes <= [0: 1_500, 1: .max][index, default: 4_096], "\(calls[index][0]): \(bytes) bytes")
        }
        // Asked for more, the whole list; cut to fit, the rest counted.
        let (cut, whole) = (try structured(answers[0]), try structured(answers[1]))
        let all = try #require(whole["flaky"] as? [[String: Any]])
        let kept = try #require(cut["flaky"] as? [[String: Any]])
        #expect(whole["more"] as? Int == 0 && (answers[1]["text"] as? String ?? "").utf8.count > 1_500)
        #expect(kept.count + (cut["more"] as? Int ?? -1) == all.count && kept.count < all.count, "\(kept.count)")
        #expect(kept.map { $0["test"] as? String } == all.prefix(kept.count).map { $0["test"] as? String })
        // A test's dashboard address names it as its id does.
        for (byID, byAddress) in [(3, 4), (5, 6), (9, 10)] {
            #expect(answers[byID]["text"] as? String == answers[byAddress]["text"] as? String, "\(calls[byID][0])")
        }
        #expect(try structured(answers[9])["standing"] as? String == "flaky")
    }

    func structured(_ answer: [String: Any]) throws -> [String: Any] {
        try #require(answer["structured"] as? [String: Any], "\(answer)")
    }

    @Test func thePromptsGiveTheStepsWithWhatTheLedgerKnows() async throws {
        let cli = try await CulpritCommandTests().ingested()
        defer { cli.directory.remove() }
        let spinner = try #require(
            CulpritCommandTests.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let document = try await MCPServerTests.document(
            cli,
            [
                ["prompt:fix_flaky_test", ["test": spinner]], ["prompt:unblock_run", [:] as [String: Any]],
                ["prompt:fix_flaky_test", [:] as [String: Any]],
            ])
        let prompts = try #require(document["prompts"] as? [[String: Any]])
        #expect(prompts.compactMap { $0["name"] as? String } == ["fix_flaky_test", "unblock_run"])
        let answers = try #require(document["calls"] as? [[String: Any]])
        let fix = try #require(answers[0]["text"] as? String, "\(answers[0])")
        #expect(fix.contains("Fix the flaky test `\(spinner)`") && fix.contains("Now: flaky:"), "\(fix)")
        #expect(fix.contains("Likely cause: `spinner hidden` (predicate)"), "\(fix)")
        let steps = ["`status`", "`culprit`", "`reproduce`", "`test_detail`", "`verify_fix`"].map {
            fix.range(of: $0)?.lowerBound
        }
        #expect(steps.allSatisfy { $0 != nil } && steps.map { $0! } == steps.map { $0! }.sorted(), "\(fix)")
        #expect(fix.contains("--allow-run"), "without it, the prompt says how to get the running tools")
        let unblock = try #require(answers[1]["text"] as? String, "\(answers[1])")
        #expect(unblock.hasPrefix("Run ") && unblock.contains("`run_summary`"), "\(unblock)")
        let error = try #require(answers[2]["error"] as? [String: Any], "\(answers[2])")
        #expect((error["message"] as? String)?.contains("test is required") == true)
    }

    @Test func reproduceAndVerifyFixRunTheProjectsTestsOnlyWithAllowRun() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (flaky, twin) = (VerifyFixTests.flaky, VerifyFixTests.twin)
        let closed = try await MCPServerTests.document(cli, [["verify_fix", ["test": twin, "rate": 0.5]]])
        #expect((closed["tools"] as? [String])?.contains("verify_fix") == false)
        let refused = try #require((closed["calls"] as? [[String: Any]])?.first?["error"] as? [String: Any])
        #expect((refused["message"] as? String)?.contains("--allow-run") == true, "\(refused)")
        let commandless = try await cli.run(["mcp", "--allow-run"])
        #expect(commandless.status == 64 && commandless.stderr.contains("--run-command"), "\(commandless.stderr)")

        let command =
            "swift test --package-path '\(RecordRetryTests.fixture)' --scratch-path '\(CLI.scratchPath(for: "RetriedSuite"))'"
        let document = try await MCPServerTests.document(
            cli,
            [
                ["reproduce", ["test": flaky, "rate": 0.5]],
                ["verify_fix", ["test": twin, "rate": 0.5, "target_rate": 0.4]],
                ["verify_fix", ["test": "RetriedTests.Nope/nothing()", "rate": 0.5]],
            ], ["--allow-run", "--run-command", command])
        let running = try #require(document["listed"] as? [[String: Any]]).filter {
            ["reproduce", "verify_fix"].contains($0["name"] as? String)
        }
        #expect(running.count == 2)
        for tool in running {
            let hints = tool["annotations"] as? [String: Any] ?? [:]
            #expect(hints["readOnlyHint"] as? Bool == false && hints["openWorldHint"] as? Bool == true, "\(hints)")
            #expect(hints["idempotentHint"] as? Bool == false && hints["destructiveHint"] as? Bool == false)
        }
        let answers = try #require(document["calls"] as? [[String: Any]])
        // Without its variable the flaky test never fails: ⌈3 / 0.5⌉ = 6 runs see nothing.
        let reproduced = try structured(answers[0])
        #expect(
            reproduced["verdict"] as? String == "not-reproduced" && reproduced["runs"] as? Int == 6, "\(reproduced)")
        let verified = try structured(answers[1])
        // Sized to show it below 40 %: ⌈ln 0.05 / ln 0.6⌉ = 6 runs, showing it below 39.3 %.
        #expect(verified["verdict"] as? String == "fixed" && verified["runs"] as? Int == 6, "\(verified)")
        #expect(verified["targetRate"] as? Double == 0.4 && verified["failureRate"] as? Double == 0.5, "\(verified)")
        #expect(abs((verified["remainingRateBelow"] as? Double ?? 1) - 0.3930) < 1e-4, "\(verified)")
        #expect(answers[0]["schemaErrors"] as? [String] == [] && answers[1]["schemaErrors"] as? [String] == [])
        let unknown = try #require(answers[2]["error"] as? [String: Any], "\(answers[2])")
        #expect((unknown["message"] as? String)?.contains("did not run") == true, "\(unknown)")
    }
}
