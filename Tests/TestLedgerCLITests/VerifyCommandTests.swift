import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// `testledger verify` running the real `swift test` on Tests/Fixtures/RetriedSuite, whose
/// `testFailsOnce` fails on its first run since `$RETRIED_MARKERS` was made and passes after.
@Suite(.serialized) struct VerifyCommandTests {
    static let failsOnce = "RetriedTests.RetriedXCTests/testFailsOnce"

    /// `testledger verify OPTIONS -- swift test` on the fixture, with the marker folder `markers`
    /// and the variables `environment` beside it.
    static func verify(
        _ cli: CLI, _ options: [String], markers: String = "markers", environment: [String: String] = [:],
        skipBuild: Bool = false
    ) async throws -> CLI.Output {
        let folder = cli.directory.path(markers)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try await cli.run(
            ["verify"] + options + [
                "--project", "Retried", "--", "swift", "test", "--package-path", RecordRetryTests.fixture,
                "--scratch-path", CLI.scratchPath(for: "RetriedSuite"),
            ] + (skipBuild ? ["--skip-build"] : []),
            environment: environment.merging(["RETRIED_MARKERS": folder]) { _, markers in markers })
    }

    static func json(_ output: CLI.Output) throws -> [String: Any] {
        // Standard output is the JSON alone (`| jq` reads it): the tests' output goes to standard error.
        return try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "\(output.stdout.suffix(2_000)) \(output.stderr.suffix(2_000))")
    }

    static func json(file: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    }

    @Test func aTestThatStillFailsIsStillFlakyAndAFixedOnePassesEveryRunNeeded() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let failing = try await Self.verify(cli, [Self.failsOnce, "--rate", "0.5"])
        #expect(failing.status == 10, "\(failing.stderr)")
        #expect(failing.stdout.contains("\(Self.failsOnce): still-flaky: failed on run 1 of 5 (p = 50 % (--rate))"))
        #expect(failing.stdout.contains("  XCTAssertFalse failed - fails on its first run only"))
        let showLine = try #require(failing.stdout.split(separator: "\n").first { $0.contains("testledger show") })
        let words = showLine.split(separator: " ").map(String.init)
        let opened = try await cli.run(Array(words.dropFirst()) + ["--format", "json"])
        let detail = try #require(try JSONSerialization.jsonObject(with: Data(opened.stdout.utf8)) as? [String: Any])
        #expect(detail["outcome"] as? String == "failed", "\(opened.stdout.prefix(500)) \(opened.stderr)")

        // The same markers: the test passes now. 5 runs rule out p = 50 % at 95 % (0.5⁵ < 0.05).
        // The team's server is named: the fix goes there too, for its uploads to follow.
        let team = try CLI()
        defer { team.directory.remove() }
        let manage = try await team.token("Retried", "manage")
        let server = try ServerProcess(team)
        defer { server.stop() }
        let verified = try await Self.verify(
            cli,
            [Self.failsOnce, "--rate", "0.5", "--format", "json", "--revision", "f1xed000c0ffee", "--branch", "fix"],
            environment: ["TESTLEDGER_URL": server.url, "TESTLEDGER_TOKEN": manage])
        let fixed = try Self.json(verified)
        #expect(fixed["verdict"] as? String == "fixed" && fixed["runs"] as? Int == 5 && fixed["passed"] as? Int == 5)
        #expect(fixed["runsNeeded"] as? Int == 5 && fixed["rateFrom"] as? String == "flag")
        #expect(fixed["firstFailure"] is NSNull, "\(fixed)")
        // 5 clean runs at 95 % show it below 1 − 0.05^(1/5) = 45.1 %, said in words too.
        let bound = try #require(fixed["remainingRateBelow"] as? Double)
        #expect(abs(bound - 0.45072) < 1e-5 && fixed["targetRate"] == nil && fixed["brokenBefore"] == nil, "\(fixed)")
        let attempts = try #require(try await cli.json(["show", Self.failsOnce]) as? [String: Any])["attempts"]
        #expect(attempts as? [String] == Array(repeating: "passed", count: 5), "\(String(describing: attempts))")
        // The verification runs are listed, each as its runs went; they are history, not the
        // suite's runs: the pyramid has none.
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.compactMap { $0["status"] as? String } == ["passed", "failed"], "\(runs)")
        #expect(runs.compactMap { $0["kind"] as? String } == ["verification", "verification"], "\(runs)")
        let verdicts = runs.map {
            ($0["labels"] as? [String: String])?[VerificationReport.verdictLabel(of: Self.failsOnce)]
        }
        #expect(verdicts == ["fixed", "still-flaky"], "\(runs)")
        let table = try await cli.run(["runs"])
        #expect(table.stdout.contains("swift-test · verification of \(Self.failsOnce): fixed"), "\(table.stdout)")
        let pyramid = try await cli.run(["report", "pyramid", "--project", "Retried"])
        #expect(pyramid.status != 0 && pyramid.stderr.contains("no run"), "\(pyramid.stdout)\(pyramid.stderr)")
        // The fix is followed until its revision runs on the default branch.
        #expect(verified.stderr.contains("\(Self.failsOnce): fix-pending until f1xed000 runs on the default branch"))
        let status = try await cli.run(["status", Self.failsOnce, "--project", "Retried"])
        #expect(status.status == 14, "\(status.stdout) \(status.stderr)")
        #expect(
            status.stdout.contains("fix-pending: fix verified on f1xed000 (fix), not yet on the default branch"),
            "\(status.stdout)")
        #expect(verified.stderr.contains("the fix was sent to \(server.url)"), "\(verified.stderr)")
        let onServer = try await team.run(["status", Self.failsOnce, "--project", "Retried"])
        #expect(onServer.status == 14 && onServer.stdout.contains("fix verified on f1xed000 (fix)"), "\(onServer)")
    }

    @Test func reproducingRunsUntilTheFailureOrThreeOverP() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let seen = try Self.json(
            try await Self.verify(cli, [Self.failsOnce, "--rate", "0.5", "--reproduce", "--format", "json"]))
        #expect(seen["verdict"] as? String == "reproduced" && seen["runs"] as? Int == 1, "\(seen)")
        #expect((seen["firstFailure"] as? [String: Any])?["attempt"] as? Int == 1)
        // ⌈3 / 0.5⌉ = 6 runs, none failing.
        let unseen = try await Self.verify(cli, [Self.failsOnce, "--rate", "0.5", "--reproduce"])
        #expect(unseen.status == 10)
        #expect(unseen.stdout.contains("\(Self.failsOnce): not-reproduced in 6 runs (⌈3 / p⌉, p = 50 % (--rate))"))
        let again = try Self.json(
            try await Self.verify(cli, [Self.failsOnce, "--rate", "0.5", "--reproduce", "--format", "json"]))
        #expect(again["verdict"] as? String == "not-reproduced" && again["firstFailure"] is NSNull)
        // Runs of the code before a fix show nothing of a fix.
        #expect(seen["remainingRateBelow"] is NSNull && again["remainingRateBelow"] is NSNull)
    }

    /// The clean runs' upper bound on the rate left, `--target-rate` sizing the runs, and a test
    /// that failed every run, which one pass does not prove fixed. Their JSON pins the contract.
    @Test func theBoundIsSaidTheTargetSizesTheRunsAndABrokenTestNeedsThemAll() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let seen = try Self.json(
            try await Self.verify(cli, [Self.failsOnce, "--rate", "0.5", "--reproduce", "--format", "json"]))
        #expect(seen["verdict"] as? String == "reproduced", "\(seen)")

        // ⌈ln 0.05 / ln 0.6⌉ = 6 runs show it below 40 %: 1 − 0.05^(1/6) = 39.3 %.
        let jsonFile = cli.directory.path("verified.json")
        let said = try await Self.verify(
            cli, [Self.failsOnce, "--rate", "0.5", "--target-rate", "0.4", "--json-file", jsonFile])
        let targeted = try Self.json(file: jsonFile)
        #expect(targeted["verdict"] as? String == "fixed" && targeted["runsNeeded"] as? Int == 6, "\(targeted)")
        #expect(targeted["targetRate"] as? Double == 0.4 && targeted["failureRate"] as? Double == 0.5)
        let bound = try #require(targeted["remainingRateBelow"] as? Double)
        #expect(abs(bound - (1 - pow(0.05, 1.0 / 6))) < 1e-12 && bound < 0.4, "\(bound)")
        #expect(
            said.stdout.contains(
                "\(Self.failsOnce): fixed: 6 of 6 passed — at 95 % confidence it now fails less than 39.3 % of the "
                    + "time (it failed 50 % before, as --rate says)"), "\(said.stdout.suffix(1_000))")

        // A test failing every run is broken: one pass proves nothing, and says so.
        let brokenText = try await Self.verify(
            cli, [Self.failsOnce, "--rate", "1", "--max-runs", "1", "--json-file", jsonFile])
        #expect(brokenText.status == 11, "\(brokenText.stderr.suffix(1_000))")
        let broken = try Self.json(file: jsonFile)
        #expect(broken["verdict"] as? String == "inconclusive" && broken["runsNeeded"] as? Int == 59, "\(broken)")
        #expect(broken["brokenBefore"] as? Bool == true && broken["targetRate"] as? Double == 0.05)
        #expect(
            brokenText.stdout.contains(
                "it failed every run before: broken, not flaky; a run that passes once is not a fix, 59 clean runs "
                    + "show it below 5 %"), "\(brokenText.stdout.suffix(1_000))")
        let refused = try await Self.verify(cli, [Self.failsOnce, "--target-rate", "1"])
        #expect(refused.status == 64 && refused.stderr.contains("--target-rate"), "\(refused.stderr)")

        var shape = JSONShape(enumerations: JSONContractTests.enumerations.union(["rateFrom"]))
        for document in [seen, targeted, broken] {
            shape.add(
                try #require(
                    JSONValue(
                        jsonText: String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
                ))
        }
        try JSONContractTests.compare(
            shape, "verify",
            [
                "testledger verify TEST --rate 0.5 --reproduce --format json (reproduced)",
                "testledger verify TEST --rate 0.5 --target-rate 0.4 --format json (fixed)",
                "testledger verify TEST --rate 1 --max-runs 1 --format json (inconclusive, broken before)",
            ])
    }

    @Test func theRateComesFromTheLedgerAndTheLimitsMakeItInconclusive() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let refused = try await Self.verify(cli, [Self.failsOnce])
        #expect(refused.status == 64 && refused.stderr.contains("pass --rate"), "\(refused.stderr)")
        // Ten runs of the suite in which the test failed three times: p = 0.3, 9 runs needed.
        let paths = try GeneratedHistory.flakyRuns(of: Self.failsOnce, project: "Retried").enumerated().map {
            index, text in
            try cli.directory.write("run\(index).jsonl", text).path
        }
        #expect(try await cli.run(["ingest"] + paths).status == 0)
        let _ = try await Self.verify(cli, [Self.failsOnce, "--rate", "0.5", "--reproduce"])  // spends the first run
        let limited = try await Self.verify(cli, [Self.failsOnce, "--max-runs", "2", "--format", "json"])
        #expect(limited.status == 11, "\(limited.stderr)")
        let report = try Self.json(limited)
        #expect(report["rateFrom"] as? String == "ledger" && report["failureRate"] as? Double == 0.3, "\(report)")
        #expect(report["verdict"] as? String == "inconclusive" && report["runsNeeded"] as? Int == 9)
        let reached = try #require(report["confidenceReached"] as? Double)
        #expect(abs(reached - (1 - 0.7 * 0.7)) < 1e-9 && report["runs"] as? Int == 2)
        // The verification runs left the ledger's rate as it was.
        let status = try await cli.run(["status", Self.failsOnce, "--project", "Retried", "--format", "json"])
        let standing = try #require(
            try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        #expect(standing.first?["runs"] as? Int == 10, "\(status.stdout)")
    }

    /// Twelve runs in which the test failed whenever `neighbour` was stored just before it.
    static func runsFailingAfter(_ neighbour: String) -> [String] {
        (0..<12).map { index in
            let run = String(format: "00000000-0000-4000-8000-%012d", index)
            let start = 1_790_000_000.0 + Double(index) * 600
            let before = index < 6 ? neighbour : "RetriedTests.RetriedXCTests/testPasses"
            func attempt(_ test: String, at: Double, _ outcome: String) -> [String] {
                let fields: [String: JSONValue] = ["test": .string(test), "attempt": 1]
                return [
                    GeneratedHistory.line("test.start", run, at, fields),
                    GeneratedHistory.line(
                        "test.end", run, at + 1,
                        fields.merging(["outcome": .string(outcome), "duration": 1]) { $1 }),
                ]
            }
            return
                ([GeneratedHistory.line("run.start", run, start, ["project": "Retried", "source": "xctest"])]
                + attempt(before, at: start + 1, "passed")
                + attempt(failsOnce, at: start + 3, index < 6 ? "failed" : "passed")
                + [GeneratedHistory.line("run.end", run, start + 5, [:])]).joined(separator: "\n") + "\n"
        }
    }

    @Test func theTestItsFailuresFollowedRunsInItsProcessEachTime() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let neighbour = "RetriedTests.RetriedXCTests/testAlwaysFails"
        let paths = try Self.runsFailingAfter(neighbour).enumerated().map { index, text in
            try cli.directory.write("run\(index).jsonl", text).path
        }
        #expect(try await cli.run(["ingest"] + paths).status == 0)
        let output = try await Self.verify(cli, [Self.failsOnce, "--rate", "0.5"])
        #expect(output.status == 10, "\(output.stderr)")
        #expect(output.stdout.contains("  ran \(neighbour) in its process each time"), "\(output.stdout.suffix(1_500))")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        let verification = try #require(runs.first?["id"] as? String)
        let shown = try await cli.run(["show", neighbour, "--run", verification, "--format", "json"])
        let detail = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(detail["attempts"] as? [String] == ["skipped"], "\(shown.stdout.prefix(800)) \(shown.stderr)")
    }
}
