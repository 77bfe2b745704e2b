import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// `record --retries` on Tests/Fixtures/RetriedSuite, whose XCTest and Swift Testing tests fail
/// on their first run only (a marker file in `$RETRIED_MARKERS`), one fails always when
/// `RETRIED_ALWAYS_FAILS=1`, one crashes its process once when `RETRIED_CRASH=1`, and the rest pass
/// (`RecordRepeatNewTests` uses its `Repeated…` tests).
@Suite(.serialized) struct RecordRetryTests {
    static let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/RetriedSuite").path
    static let failingOnce = [
        "RetriedTests.RetriedXCTests/testFailsOnce", "RetriedTests.RetriedSwiftTests/failsOnce()",
        "RetriedTests.RetriedSwiftTests/failsOnceFor(value:)",
    ]
    static let passing = [
        "RetriedTests.RetriedXCTests/testPasses", "RetriedTests.RetriedXCTests/testFailsOnceNeighbour",
        "RetriedTests.RetriedSwiftTests/passes()",
    ]
    static let alwaysFails = "RetriedTests.RetriedXCTests/testAlwaysFails"

    /// `testledger record OPTIONS -- swift test` on the fixture, with a fresh marker folder.
    /// - Parameters:
    ///   - cli: the CLI, with its directory.
    ///   - options: `record`'s options.
    ///   - skipping: a `swift test --skip` pattern, when given.
    ///   - environment: variables for the command, over the marker folder's.
    /// - Returns: the command's output.
    /// - Throws: what creating the marker folder or running the command throws.
    func record(_ cli: CLI, _ options: [String], skipping: String? = nil, environment: [String: String] = [:])
        async throws -> CLI.Output
    {
        let markers = cli.directory.path("markers")
        try FileManager.default.createDirectory(atPath: markers, withIntermediateDirectories: true)
        return try await cli.run(
            ["record"] + options + [
                "--", "swift", "test", "--package-path", Self.fixture, "--scratch-path",
                CLI.scratchPath(for: "RetriedSuite"),
            ] + (skipping.map { ["--skip", $0] } ?? []),
            environment: ["RETRIED_MARKERS": markers].merging(environment) { _, given in given })
    }

    func show(_ cli: CLI, _ test: String) async throws -> [String: Any] {
        try #require(try await cli.json(["show", test]) as? [String: Any])
    }

    func attempts(_ cli: CLI, _ test: String) async throws -> [String] {
        try await show(cli, test)["attempts"] as? [String] ?? []
    }

    @Test func failedTestsRunAgainUntilTheyPassAndTheRestOnce() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await record(cli, ["--retries", "2"], environment: ["RETRIED_ALWAYS_FAILS": "1"])
        #expect(output.status != 0, "one test fails every time")
        for test in Self.failingOnce {
            await #expect(try attempts(cli, test) == ["failed", "passed"], "\(test)")
        }
        await #expect(try attempts(cli, Self.alwaysFails) == ["failed", "failed", "failed"])
        for test in Self.passing {
            await #expect(try attempts(cli, test) == ["passed"], "\(test) is not run again")
        }
        // Each retry's steps are its own: the library in the retry's process numbers its attempt.
        for test in Self.failingOnce.prefix(2) {
            let detail = try await show(cli, test)
            #expect((detail["activities"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Retry"], "\(test)")
            let captures = try #require(detail["captures"] as? [[String: Any]])
            #expect(captures.map { ($0["fields"] as? [String: Any])?["firstRun"] as? Bool } == [false], "\(test)")
        }
        // The first attempt's failure is kept.
        let groups = try #require(try await cli.json(["report", "failures"]) as? [[String: Any]])
        let tests = Set(groups.flatMap { $0["tests"] as? [String] ?? [] })
        #expect(tests.isSuperset(of: Self.failingOnce + [Self.alwaysFails]), "\(tests)")
        #expect(
            output.stdout.contains(
                "flaky in this run (passed on a retry): RetriedTests.RetriedSwiftTests/failsOnce() (failed, passed)"),
            "\(output.stdout.suffix(3_000))")
        #expect(output.stdout.contains("failed on every retry: \(Self.alwaysFails) (failed, failed, failed)"))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["status"] as? String == "failed")
    }

    @Test func whenEveryFailurePassesOnARetryTheCommandPasses() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await record(cli, ["--retries", "2"])
        #expect(output.status == 0, "\(output.stdout.suffix(3_000))\(output.stderr.suffix(2_000))")
        for test in Self.failingOnce {
            await #expect(try attempts(cli, test) == ["failed", "passed"], "\(test)")
        }
        await #expect(try attempts(cli, Self.alwaysFails) == ["skipped"], "a skipped test stays skipped")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["status"] as? String == "passed")
        #expect(runs.first?["flaky"] as? Int == 3, "\(runs)")
    }

    @Test func failOnRetriedKeepsARetriedPassAFailure() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await record(cli, ["--fail-on-retried"], environment: ["TESTLEDGER_TEST_RETRIES": "1"])
        #expect(output.status != 0)
        await #expect(try attempts(cli, "RetriedTests.RetriedXCTests/testFailsOnce") == ["failed", "passed"])
        #expect(
            output.stdout.contains("--fail-on-retried: 3 test(s) passed only on a retry: the command fails"),
            "\(output.stdout.suffix(3_000))")
    }

    @Test func overTheLimitNothingIsRetriedAndTheSummarySaysWhy() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await record(
            cli, ["--retries", "2", "--retry-limit", "3"], environment: ["RETRIED_ALWAYS_FAILS": "1"])
        #expect(output.status != 0)
        #expect(
            output.stdout.contains("nothing was retried: 4 tests failed, more than --retry-limit 3"),
            "\(output.stdout.suffix(3_000))")
        await #expect(try attempts(cli, "RetriedTests.RetriedXCTests/testFailsOnce") == ["failed"])
    }

    @Test func aMutedTestIsNotRetried() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let muted = try await cli.run(
            [
                "quarantine", "add", Self.alwaysFails, "--mode", "mute", "--reason", "broken", "--project", "Retried",
                "--force",
            ])
        #expect(muted.status == 0, "\(muted.stderr)")
        let output = try await record(
            cli, ["--retries", "1", "--project", "Retried"], environment: ["RETRIED_ALWAYS_FAILS": "1"])
        await #expect(try attempts(cli, Self.alwaysFails) == ["failed"])
        await #expect(try attempts(cli, "RetriedTests.RetriedXCTests/testFailsOnce") == ["failed", "passed"])
        #expect(output.status == 0, "the muted test's is the only failure left: \(output.stdout.suffix(2_000))")
    }

    @Test func onlyATestTheLedgerCallsFlakyIsRetriedAndANewFailureStaysRed() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        // Ten earlier runs in which testFailsOnce failed three times: the ledger calls it flaky.
        let flaky = "RetriedTests.RetriedXCTests/testFailsOnce"
        // And ten in which another test failed three times as failsOnce() fails: a known flaky group.
        let group = Self.flakyRuns(
            of: "RetriedTests.Other/flake", failing: "Expectation failed: !(first → <not evaluated>)")
        let paths = try (GeneratedHistory.flakyRuns(of: flaky, project: "Retried") + group).enumerated().map {
            index, text in try cli.directory.write("run\(index).jsonl", text).path
        }
        let ingested = try await cli.run(["ingest"] + paths)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let output = try await record(
            cli, ["--retries", "2", "--retry-only", "known-flaky", "--project", "Retried"],
            environment: ["RETRIED_ALWAYS_FAILS": "1"])
        #expect(output.status != 0, "new failures keep the job red: \(output.stdout.suffix(2_000))")
        await #expect(try attempts(cli, flaky) == ["failed", "passed"])
        let inTheGroup = "RetriedTests.RetriedSwiftTests/failsOnce()"
        await #expect(try attempts(cli, inTheGroup) == ["failed", "passed"], "its failure is a known flaky one")
        for test in Self.failingOnce.dropFirst(2) + [Self.alwaysFails] {
            await #expect(try attempts(cli, test) == ["failed"], "\(test) is new: not retried")
        }
        #expect(
            output.stdout.contains(
                "not retried, as the ledger does not call them flaky (--retry-only known-flaky): "),
            "\(output.stdout.suffix(3_000))")
        let refused = try await cli.run(["record", "--retry-only", "known-flaky", "--", "bacon", "spec.rb"])
        #expect(refused.status == 64 && refused.stderr.contains("--retry-only known-flaky"), "\(refused.stderr)")
    }

    /// Ten runs of `test` in project Retried; it fails in three, with `message`.
    static func flakyRuns(of test: String, failing message: String) -> [String] {
        (0..<10).map { index in
            let run = String(format: "00000000-0000-4000-9000-%012d", index)
            let start = 1_790_000_000.0 + Double(index) * 600 + 60
            let attempt: [String: JSONValue] = ["test": .string(test), "attempt": 1]
            let fails = index % 3 == 1
            let issue = GeneratedHistory.line(
                "issue", run, start + 1.5, attempt.merging(["message": .string(message)]) { $1 })
            return
                ([
                    GeneratedHistory.line("run.start", run, start, ["project": "Retried", "source": "xctest"]),
                    GeneratedHistory.line("test.start", run, start + 1, attempt),
                ] + (fails ? [issue] : []) + [
                    GeneratedHistory.line(
                        "test.end", run, start + 2,
                        attempt.merging(["outcome": .string(fails ? "failed" : "passed"), "duration": 1]) { $1 }),
                    GeneratedHistory.line("run.end", run, start + 3, [:]),
                ]).joined(separator: "\n") + "\n"
        }
    }

    @Test func aTestThatCrashesItsProcessIsRetriedInANewOne() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await record(cli, ["--retries", "2"], environment: ["RETRIED_CRASH": "1"])
        let crashing = "RetriedTests.RetriedXCTests/testCrashesOnce"
        await #expect(try attempts(cli, crashing) == ["crashed", "passed"], "\(output.stdout.suffix(3_000))")
        #expect(output.stdout.contains("retrying 1 failed test(s), attempt 2: \(crashing)\n"))
        // A test that crashes on its retry runs alone after it; the one it kept from running is
        // run again without that counting as an attempt.
        let crashingLater = "RetriedTests.RetriedXCTests/testBeforeTheCrashA_failsThenCrashes"
        await #expect(try attempts(cli, crashingLater) == ["failed", "crashed", "passed"])
        #expect(output.stdout.contains("retrying 1 failed test(s), attempt 3: \(crashingLater)\n"))
        let keptFromRunning = "RetriedTests.RetriedXCTests/testBeforeTheCrashB_failsOnce"
        await #expect(try attempts(cli, keptFromRunning) == ["failed", "passed"])
        #expect(output.status != 0, "the tests after the first crash never ran")
        #expect(output.stdout.contains("\(crashing) crashed the test process"))
    }
}

/// `record --retries N -- xcodebuild test`: Xcode retries, and its bundle's repetitions are the
/// attempts; N comes from the flag, else `TESTLEDGER_TEST_RETRIES`, else `.testledger.yml`.
@Suite struct RecordRetryXcodebuildTests {
    func arguments(_ cli: CLI, _ options: [String], _ extra: [String] = [], environment: [String: String] = [:])
        async throws -> String
    {
        try? FileManager.default.removeItem(atPath: cli.directory.path("xcodebuild.log"))
        let recorded = try await cli.run(
            ["record", "--project", "Shop"] + options + ["--", "xcodebuild", "test", "-scheme", "RandomStuff"] + extra,
            environment: XcodebuildCommandTests().environment(cli, environment))
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let log = XcodebuildCommandTests().log(cli, "xcodebuild.log")
        // A missing log or line would make every "does not contain" below pass: it must be there.
        let line = log.split(separator: "\n").first { $0.hasPrefix("args: ") }.map(String.init)
        #expect(line?.contains("-scheme RandomStuff") == true, "\(log)")
        return line ?? "no args line in xcodebuild.log: \(log)"
    }

    /// The command's own `-only-testing:` chooses what the first run runs; the retry runs the
    /// failed test alone, not the command's choice again (the stand-in runs what they select).
    @Test func aRetryRunsTheFailedTestNotTheCommandsOwnSelection() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let script = try XcodebuildScript(cli, failing: "RandomStuffTests/testExample()")
        let recorded = try await cli.run(
            [
                "record", "--project", "Shop", "--retries", "1", "--", "xcodebuild", "test", "-scheme", "RandomStuff",
                "-only-testing:RandomStuffTests",
            ], environment: XcodebuildCommandTests().environment(cli, ["XCODEBUILD_SCRIPT": script.folder]))
        #expect(recorded.status == 0, "it passed on its retry: \(recorded.stdout.suffix(800)) \(recorded.stderr)")
        let attempts = try await ConcurrentCreationTests.query(
            cli.database,
            """
            SELECT test.key || ' ' || group_concat(result.outcome, ',') FROM result JOIN test ON test.id = result.testId
            GROUP BY test.key ORDER BY test.key
            """)
        #expect(
            attempts == [
                "RandomStuffTests.RandomStuffTests/testExample() failed,passed",
                "RandomStuffTests.RandomStuffTests/testPerformanceExample() passed",
            ], "only the command's target ran, and only the failed test again")
    }

    @Test func xcodebuildRetriesOnlyTheFailedTestsWithoutBuilding() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        // Xcode's own retry is never asked for: it would run every Swift Testing test again.
        await #expect(try arguments(cli, ["--retries", "2"]).contains("-retry-tests-on-failure") == false)
        let example = "RandomStuffTests.RandomStuffTests/testExample()"
        let script = try XcodebuildScript(cli, failing: "RandomStuffTests/testExample()")
        try? FileManager.default.removeItem(atPath: cli.directory.path("xcodebuild.log"))
        let recorded = try await cli.run(
            ["record", "--project", "Shop", "--retries", "2", "--", "xcodebuild", "test", "-scheme", "RandomStuff"],
            environment: XcodebuildCommandTests().environment(cli, ["XCODEBUILD_SCRIPT": script.folder]))
        #expect(recorded.status == 0, "it passed on its retry: \(recorded.stdout.suffix(800)) \(recorded.stderr)")
        let log = XcodebuildCommandTests().log(cli, "xcodebuild.log")
        let calls = log.split(separator: "\n").filter { $0.hasPrefix("args: ") }
        #expect(calls.count == 2, "the command, then one retry: \(calls)")
        let retry = String(calls.last ?? "")
        #expect(retry.hasPrefix("args: test-without-building -scheme RandomStuff -resultBundlePath "), "\(retry)")
        #expect(retry.hasSuffix(" -only-testing:RandomStuffTests/RandomStuffTests/testExample()"), "\(retry)")
        #expect(retry.contains("/retry-1/Tests.xcresult") && !retry.contains("-retry-tests-on-failure"))
        #expect(log.contains("TEST_RUNNER_TESTLEDGER_ATTEMPT_OFFSET=1"), "\(log)")
        let shown = try #require(try await cli.json(["show", example]) as? [String: Any])
        #expect(shown["attempts"] as? [String] == ["failed", "passed"], "\(shown)")
        let other = try #require(
            try await cli.json(["show", "RandomStuffUITests.RandomStuffUITests/testExample()"]) as? [String: Any])
        #expect(other["attempts"] as? [String] == ["passed"], "only the failed test ran again: \(other)")
        #expect(recorded.stdout.contains("flaky in this run (passed on a retry): \(example) (failed, passed)"))

        // Not known to be flaky, a new failure is not retried and the job fails.
        let fresh = try CLI()
        defer { fresh.directory.remove() }
        let again = try XcodebuildScript(fresh, failing: "RandomStuffTests/testExample()")
        let kept = try await fresh.run(
            [
                "record", "--project", "Shop", "--retries", "2", "--retry-only", "known-flaky", "--", "xcodebuild",
                "test",
            ], environment: XcodebuildCommandTests().environment(fresh, ["XCODEBUILD_SCRIPT": again.folder]))
        #expect(kept.status == 65, "\(kept.stderr)")
        let keptCalls = XcodebuildCommandTests().log(fresh, "xcodebuild.log").split(separator: "\n")
        #expect(keptCalls.filter { $0.hasPrefix("args: ") }.count == 1)
    }
}

/// `record --retries N -- COMMAND` for any other command than `swift test` and `xcodebuild`: the
/// command gets `TESTLEDGER_TEST_RETRIES=N`, with which Bacon's output module retries a failing
/// spec in its process, each run an attempt of the run `record` made.
@Suite struct RecordRetryOtherCommandTests {
    /// What `record OPTIONS -- sh -c 'echo …$TESTLEDGER_TEST_RETRIES'` shows the command.
    func seen(_ cli: CLI, _ options: [String], environment: [String: String] = [:]) async throws -> CLI.Output {
        try await cli.run(
            ["record"] + options + ["--", "sh", "-c", #"echo "retries=$TESTLEDGER_TEST_RETRIES""#],
            environment: environment)
    }

    @Test func theCommandGetsTheCountAsTESTLEDGER_TEST_RETRIES() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let flag = try await seen(cli, ["--retries", "2"])
        #expect(flag.status == 0, "\(flag.stderr)")
        #expect(flag.stdout.contains("retries=2\n"), "\(flag.stdout)")
        #expect(
            flag.stderr.contains("testledger: the command gets TESTLEDGER_TEST_RETRIES=2;"), "\(flag.stderr)")
        let overridden = try await seen(cli, ["--retries", "0"], environment: ["TESTLEDGER_TEST_RETRIES": "3"])
        #expect(overridden.stdout.contains("retries=0\n"), "the flag wins: \(overridden.stdout)")
        #expect(!overridden.stderr.contains("TESTLEDGER_TEST_RETRIES"), "\(overridden.stderr)")
        try cli.directory.write(".testledger.yml", "retries: 1\n")
        await #expect(try seen(cli, []).stdout.contains("retries=1\n"), ".testledger.yml's retries")
    }

    /// `record --project Retries OPTIONS -- bacon -r testledger -o TestLedger spec/retry_spec.rb`
    /// on a spec that fails once (a marker file beside it), in `cli`'s directory.
    func bacon(_ cli: CLI, _ options: [String]) async throws -> CLI.Output {
        try cli.directory.write("spec/retry_spec.rb", BaconModuleTests.failsOnce)
        let bacon = try #require(InstalledTools.bacon)
        return try await cli.run(
            ["record", "--project", "Retries"] + options + [
                "--", bacon, "-r", BaconModuleTests.module, "-o", "TestLedger", "spec/retry_spec.rb",
            ], environment: ["TESTLEDGER_BIN": CLI.binary.path])
    }

    @Test(.enabled(if: InstalledTools.bacon != nil, "bacon (Debian's ruby-bacon) is not installed"))
    func baconsModuleRetriesAFailingSpecAsTheNextAttemptOfTheRecordedRun() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await bacon(cli, ["--retries", "2"])
        #expect(output.status == 0, "the spec passed on its retry: \(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("  - fails once [FAILED, retrying 1/2]\n  - fails once\n"), "\(output.stdout)")
        #expect(!output.stderr.contains("recording stopped"), "\(output.stderr)")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1, "the module's events joined record's run: \(runs)")
        #expect(runs.first?["project"] as? String == "Retries")
        #expect(runs.first?["flaky"] as? Int == 1 && runs.first?["status"] as? String == "passed", "\(runs)")
        let detail = try #require(try await cli.json(["show", "Retried/fails once"]) as? [String: Any])
        #expect(detail["attempts"] as? [String] == ["failed", "passed"])

        let strict = try CLI()
        defer { strict.directory.remove() }
        let failed = try await bacon(strict, ["--retries", "1", "--fail-on-retried"])
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stdout.contains("--fail-on-retried: 1 test(s) passed only on a retry: the command fails"))
    }
}
