import Foundation
import LedgerTestSupport
import Testing

/// Runs the real `swift test` on Tests/Fixtures/ObservedSuite, which links the TestLedger
/// library and registers nothing itself, then reads what it recorded.
@Suite(.serialized) struct ObserverTests {
    static let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/ObservedSuite").path

    /// `swift test` on the fixture; returns its exit status and output.
    func swiftTest(
        _ cli: CLI, _ extra: [String] = [], subcommand: [String] = [], environment: [String: String] = [:]
    ) async throws -> CLI.Output {
        try await ChildProcess.runTool(
            ["swift", "test"] + subcommand
                + ["--package-path", Self.fixture, "--scratch-path", CLI.scratchPath(for: "ObservedSuite")] + extra,
            environment: ["TESTLEDGER_DB": cli.database].merging(environment) { _, new in new })
    }

    func show(_ cli: CLI, _ test: String) async throws -> [String: Any] {
        try #require(try await cli.json(["show", "ObservedTests." + test]) as? [String: Any])
    }

    @Test func linkingTheLibraryRecordsEveryXCTestCase() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let run = try await swiftTest(cli, ["--filter", "RecordedFieldsTests|CheckoutUITests|SyncIntegrationTests"])
        #expect(run.status != 0, "one fixture test fails on purpose")
        await #expect(try show(cli, "RecordedFieldsTests/testPasses")["outcome"] as? String == "passed")
        await #expect(try show(cli, "RecordedFieldsTests/testIsSkipped")["outcome"] as? String == "skipped")
        let failed = try await show(cli, "RecordedFieldsTests/testFailsWithAMessage")
        #expect(failed["outcome"] as? String == "failed")
        let issue = try #require((failed["issues"] as? [[String: Any]])?.first)
        #expect((issue["message"] as? String)?.contains("the total was 3, not 4") == true)
        #expect(issue["line"] as? Int == 12)
        #expect((issue["file"] as? String)?.hasSuffix("RecordedFieldsTests.swift") == true)
        let slow = try await show(cli, "RecordedFieldsTests/testSleepsFiftyMilliseconds")
        #expect((slow["duration"] as? Double ?? 0) >= 0.05)
        await #expect(try show(cli, "CheckoutUITests/testPays")["layer"] as? String == "ui")
        let pyramid = try #require(try await cli.json(["report", "pyramid"]) as? [String: Any])
        let layers = try #require(pyramid["layers"] as? [[String: Any]])
        #expect(layers.map { $0["tests"] as? Int } == [4, 1, 1])
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["source"] as? String == "xctest")
        // The project, revision and branch as the CLI resolves them here: git's, with no CI.
        #expect(
            runs.first?["project"] as? String
                == (await Self.git(["rev-parse", "--show-toplevel"]))?.split(separator: "/").last.map(String.init))
        #expect(runs.first?["revision"] as? String == (await Self.git(["rev-parse", "HEAD"])))
    }

    /// What git says about the working directory the tests run in.
    static func git(_ arguments: [String]) async -> String? {
        guard let output = try? await ChildProcess.runTool(["git"] + arguments), output.status == 0 else { return nil }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func activitiesNestAndCapturesAttachToThem() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await swiftTest(cli, ["--filter", "ActivityTests"])
        let detail = try await show(cli, "ActivityTests/testNestedActivitiesWithCaptures")
        let outer = try #require((detail["activities"] as? [[String: Any]])?.first)
        #expect(outer["name"] as? String == "Open the cart")
        let middle = try #require((outer["children"] as? [[String: Any]])?.first)
        let inner = try #require((middle["children"] as? [[String: Any]])?.first)
        #expect(inner["name"] as? String == "Confirm the alert")
        #expect(inner["outcome"] as? String == "passed")
        let captures = try #require(detail["captures"] as? [[String: Any]])
        #expect(
            captures.map { $0["verifier"] as? String } == [
                "AlertVerifier", "PresentationVerifier", "DismissalVerifier", "FakeUserDefaults",
            ])
        let alert = try #require(captures[0]["fields"] as? [String: Any])
        #expect(alert["title"] as? String == "Remove item?")
        #expect(alert["preferredStyle"] as? String == "actionSheet")
        #expect((alert["actions"] as? [[String: Any]])?.map { $0["style"] as? String } == ["destructive", "cancel"])
        #expect(captures[0]["activity"] as? String == inner["id"] as? String, "captured in the activity it names")
        let fake = try #require(captures[3]["fields"] as? [String: Any])
        #expect(fake["hasSynchronised"] as? Bool == true)
        #expect((fake["values"] as? [String: Any])?["volume"] as? Int == 7)

        let failing = try await show(cli, "ActivityTests/testAFailureMarksItsActivities")
        let tree = try #require(failing["activities"] as? [[String: Any]])
        #expect(tree.map { $0["outcome"] as? String } == ["failed", "passed"])
        #expect((tree[0]["children"] as? [[String: Any]])?.first?["outcome"] as? String == "failed")
        let async = try await show(cli, "ActivityTests/testAsyncActivityReturnsItsValue")
        #expect((async["activities"] as? [[String: Any]])?.first?["name"] as? String == "Load")
    }

    @Test func predicatesRecordBothExpectationsAndTimeouts() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await swiftTest(cli, ["--filter", "PredicateTests"])
        let late = try await #require(
            (try show(cli, "PredicateTests/testHoldsLate")["predicates"] as? [[String: Any]])?.first)
        #expect(late["name"] as? String == "loaded")
        #expect(late["held"] as? Bool == true)
        #expect((late["attempts"] as? Int ?? 0) > 1)
        #expect((late["waited"] as? Double ?? 0) >= 0.05)
        #expect(late["timeout"] as? Double == 1)
        let spinner = try await #require(
            try show(cli, "PredicateTests/testDoesntHoldWaitsForTheSpinnerToStop")["predicates"] as? [[String: Any]])
        #expect(spinner.map { $0["expect"] as? String } == ["holds", "doesntHold", "holds"])
        #expect(spinner.map { $0["name"] as? String } == ["spinner shown", "spinner shown", "not spinner shown"])
        #expect(spinner.allSatisfy { $0["held"] as? Bool == true })
        let never = try await #require(
            (try show(cli, "PredicateTests/testTimesOut")["predicates"] as? [[String: Any]])?.first)
        #expect(never["held"] as? Bool == false)
        #expect((never["waited"] as? Double ?? 0) >= 0.1)
        #expect((never["attempts"] as? Int ?? 0) >= 5)
    }

    @Test func aCrashKeepsWhatCameBeforeAndShowsAsCrashed() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let run = try await swiftTest(cli, ["--filter", "CrashTests"], environment: ["FIXTURE_CRASH": "1"])
        #expect(run.status != 0)
        await #expect(try show(cli, "CrashTests/testA_passesFirst")["outcome"] as? String == "passed")
        let crashed = try await show(cli, "CrashTests/testB_crashes")
        #expect(crashed["outcome"] as? String == "crashed")
        #expect(crashed["attempts"] as? [String] == ["crashed"])
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["crashed"] as? Int == 1)
        #expect(runs.first?["status"] as? String == "interrupted")
        let pyramid = try #require(try await cli.json(["report", "pyramid"]) as? [String: Any])
        #expect((pyramid["layers"] as? [[String: Any]])?.first?["failureRate"] as? Double == 0.5)
    }

    @Test func parallelWorkersJoinOneRunWithoutLossOrDuplicates() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await swiftTest(cli, ["--parallel", "--filter", "RecordedFieldsTests|PredicateTests|ActivityTests"])
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["tests"] as? Int == 10)
        #expect(runs.first?["failed"] as? Int == 2)
        // SwiftPM's workers run each test in a process of its own: no test ran before another in
        // its process, so none can be a preceding-test.
        let processes = try await ConcurrentCreationTests.query(
            cli.database, "SELECT COUNT(DISTINCT process) || ' ' || COUNT(*) FROM result")
        #expect(processes == ["10 10"])
        let culprit = try #require(
            try await cli.json(["report", "culprit", "ObservedTests.RecordedFieldsTests/testFailsWithAMessage"])
                as? [String: Any])
        #expect((culprit["compared"] as? [String])?.contains("preceding tests") == false, "\(culprit)")
    }

    @Test func recordJoinsSwiftTestingOutcomesWithWhatTheLibrarySaw() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await cli.run(
            [
                "record", "--", "swift", "test", "--package-path", Self.fixture, "--scratch-path",
                CLI.scratchPath(for: "ObservedSuite"), "--filter", "SwiftTestingSideTests|CheckoutUITests",
            ])
        #expect(output.status == 0, "\(output.stderr.suffix(2_000))")
        let detail = try await show(cli, "SwiftTestingSideTests/recordsItsStepsAgainstItself()")
        #expect(detail["outcome"] as? String == "passed")
        #expect(detail["layer"] as? String == "integration")
        let fetch = try #require((detail["activities"] as? [[String: Any]])?.first)
        #expect(fetch["name"] as? String == "Fetch")
        #expect((detail["captures"] as? [[String: Any]])?.first?["activity"] as? String == fetch["id"] as? String)
        #expect((detail["predicates"] as? [[String: Any]])?.first?["name"] as? String == "response")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["tests"] as? Int == 3)
        #expect(runs.first?["crashed"] as? Int == 0)
    }

    /// What the fixture's Swift Testing tests counted of their own steps, captures and checks, by
    /// test id, the cases of a parameterized test added up.
    static func tally(_ path: String) throws -> [String: [Int]] {
        var counts: [String: [Int]] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            let figures = fields.dropFirst().compactMap { Int($0) }
            try #require(fields.count == 4 && figures.count == 3, "\(line)")
            counts["ObservedTests." + fields[0], default: [0, 0, 0]] = zip(
                counts["ObservedTests." + fields[0]] ?? [0, 0, 0], figures
            ).map { $0 + $1 }
        }
        return counts
    }

    /// What the ledger holds of each Swift Testing steps test, read with sqlite3.
    static func stored(_ database: String) async throws -> [String: [Int]] {
        let rows = try await ConcurrentCreationTests.query(
            database,
            """
            SELECT t.key, (SELECT count(*) FROM activity WHERE resultId = r.id),
                (SELECT count(*) FROM capture WHERE resultId = r.id), (SELECT count(*) FROM predicate WHERE resultId = r.id)
            FROM result r JOIN test t ON t.id = r.testId WHERE t.key LIKE '%StepsTests/%'
            """)
        var stored: [String: [Int]] = [:]
        for row in rows {
            let fields = row.split(separator: "|")
            try #require(stored[String(fields[0])] == nil, "one attempt per test: \(rows)")
            stored[String(fields[0])] = fields.dropFirst().compactMap { Int($0) }
        }
        return stored
    }

    @Test func everyStepCheckAndCaptureOfASwiftTestingTestIsKeptDirectlyAndUnderRecord() async throws {
        for underRecord in [false, true] {
            let cli = try CLI()
            defer { cli.directory.remove() }
            let tally = cli.directory.path("tally.txt")
            let filter = ["--filter", "SerialStepsTests|ParallelStepsTests"]
            if underRecord {
                let output = try await cli.run(
                    [
                        "record", "--", "swift", "test", "--package-path", Self.fixture, "--scratch-path",
                        CLI.scratchPath(for: "ObservedSuite"),
                    ] + filter,
                    environment: ["FIXTURE_TALLY": tally])
                #expect(output.status == 0, "\(output.stderr.suffix(2_000))")
            } else {
                let run = try await swiftTest(cli, filter, environment: ["FIXTURE_TALLY": tally])
                #expect(run.status == 0, "\(run.stdout.suffix(2_000))")
            }
            let expected = try Self.tally(tally)
            #expect(expected.count == 6, "every test counted itself: \(expected.keys.sorted())")
            #expect(expected.values.allSatisfy { $0[0] >= 3 }, "several steps each: \(expected)")
            let stored = try await Self.stored(cli.database)
            #expect(stored == expected, "under record: \(underRecord)")
            if underRecord {
                let detail = try await show(cli, "SerialStepsTests/nestedStepsWithChecksAndCapturesAtEveryLevel()")
                let signIn = try #require((detail["activities"] as? [[String: Any]])?.first)
                #expect(signIn["name"] as? String == "Sign in")
                let typing = try #require((signIn["children"] as? [[String: Any]])?.first)
                #expect((typing["children"] as? [[String: Any]])?.first?["name"] as? String == "Wait for the field")
                let thrown = try await show(cli, "SerialStepsTests/aStepThatThrowsKeepsTheStepsAroundIt()")
                let steps = try #require(thrown["activities"] as? [[String: Any]])
                #expect(steps.map { $0["name"] as? String } == ["Fill the basket", "Check out", "Show the receipt"])
                #expect(steps.map { $0["outcome"] as? String } == ["passed", "failed", "passed"])
            }
        }
    }

    @Test func aSwiftTestingTestKilledMidwayKeepsTheStepsItFinished() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let run = try await swiftTest(cli, ["--filter", "SwiftTestingKillTests"], environment: ["FIXTURE_KILL": "1"])
        #expect(run.status != 0)
        let detail = try await show(cli, "SwiftTestingKillTests/crashesInItsSecondStep()")
        let steps = try #require(detail["activities"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String } == ["Written before the crash"])
        #expect((detail["captures"] as? [[String: Any]])?.first?["verifier"] as? String == "FakeStore")
    }

    @Test func withAServerTheLibrarySendsInsteadOfWritingTheFile() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token("Observed")
        let server = try ServerProcess(cli)
        defer { server.stop() }
        let elsewhere = cli.directory.path("not-this.sqlite")
        let spool = cli.directory.path("spool")
        let tally = cli.directory.path("tally.txt")
        _ = try await swiftTest(
            cli, ["--filter", "RecordedFieldsTests|ActivityTests|SerialStepsTests|ParallelStepsTests"],
            environment: [
                "TESTLEDGER_URL": server.url, "TESTLEDGER_TOKEN": token, "TESTLEDGER_DB": elsewhere,
                "TESTLEDGER_SPOOL": spool, "FIXTURE_TALLY": tally,
            ])
        let expected = try Self.tally(tally)
        #expect(expected.count == 6)
        #expect(try await Self.stored(cli.database) == expected, "every batch of every Swift Testing test")
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["project"] as? String == "Observed")
        #expect(runs.first?["status"] as? String != "interrupted")
        await #expect(try show(cli, "RecordedFieldsTests/testPasses")["outcome"] as? String == "passed")
        let detail = try await show(cli, "ActivityTests/testNestedActivitiesWithCaptures")
        #expect((detail["activities"] as? [[String: Any]])?.isEmpty == false)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
        #expect(left.filter { $0.hasSuffix(".ndjson") }.isEmpty, "every batch was sent: \(left)")
    }

    @Test func withTheServerDownTheLibrarySpoolsForLater() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token("Observed")
        let spool = cli.directory.path("spool")
        let tally = cli.directory.path("tally.txt")
        let run = try await swiftTest(
            cli, ["--filter", "RecordedFieldsTests|SerialStepsTests"],
            environment: [
                "TESTLEDGER_URL": "http://127.0.0.1:9", "TESTLEDGER_TOKEN": token, "TESTLEDGER_SPOOL": spool,
                "TESTLEDGER_RETRIES": "2", "TESTLEDGER_RETRY_DELAY": "0.01", "FIXTURE_TALLY": tally,
            ])
        // `swift test` passes its test process's standard error on to its own standard output.
        #expect((run.stdout + run.stderr).contains("testledger upload --spool"), "\(run.stdout)\n\(run.stderr)")
        let server = try ServerProcess(cli)
        defer { server.stop() }
        let sent = try await cli.run(
            ["upload", "--spool", "--url", server.url],
            environment: ["TESTLEDGER_TOKEN": token, "TESTLEDGER_SPOOL": spool])
        #expect(sent.status == 0, "\(sent.stderr)")
        await #expect(try show(cli, "RecordedFieldsTests/testPasses")["outcome"] as? String == "passed")
        await #expect(try show(cli, "RecordedFieldsTests/testFailsWithAMessage")["outcome"] as? String == "failed")
        let expected = try Self.tally(tally)
        #expect(expected.count == 3)
        #expect(try await Self.stored(cli.database) == expected, "the spooled batches, uploaded")
    }

    @Test func anUnwritableStoreLeavesTheTestsAlone() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let run = try await swiftTest(
            cli, ["--filter", "RecordedFieldsTests"],
            environment: ["TESTLEDGER_DB": "/proc/no-such-place/ledger.sqlite"])
        #expect(run.stdout.contains("Executed 4 tests, with 1 test skipped and 1 failure"))
        let printed = run.stdout + run.stderr  // swift test passes the tests' stderr on through stdout
        #expect(printed.components(separatedBy: "testledger: recording stopped").count == 2, "one warning")
        #expect(!FileManager.default.fileExists(atPath: cli.database))
    }

    @Test func disabledOrListingWritesNothing() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let disabled = try await swiftTest(
            cli, ["--filter", "CheckoutUITests|SerialStepsTests"], environment: ["TESTLEDGER_DISABLE": "1"])
        #expect(disabled.status == 0, "\(disabled.stdout.suffix(2_000))")
        #expect(disabled.stdout.contains("SerialStepsTests"), "the Swift Testing tests ran too")
        #expect(!FileManager.default.fileExists(atPath: cli.database))
        #expect(!FileManager.default.fileExists(atPath: cli.database + ".pending"), "not even a journal")
        let list = try await swiftTest(cli, ["--skip-build"], subcommand: ["list"])
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 30)
        #expect(lines.allSatisfy { $0.hasPrefix("ObservedTests.") }, "loading the library prints nothing")
        #expect(!FileManager.default.fileExists(atPath: cli.database))
    }
}
