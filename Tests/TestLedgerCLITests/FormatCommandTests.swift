import Foundation
import LedgerTestSupport
import Testing

/// `RUNNER | testledger format` with real runners: Bacon's four outputs and node's TAP.
@Suite struct FormatCommandTests {
    static let specs = CLI.packageRoot.appending(path: "Tests/Fixtures/BaconSpecs").path
    static let module = CLI.packageRoot.appending(path: "Formatters/bacon/testledger").path
    static let hasBacon = FileManager.default.isExecutableFile(atPath: "/usr/bin/bacon")

    /// Runs `COMMAND | testledger format` through the shell, in the fixture's folder.
    func pipe(_ cli: CLI, _ command: String) async throws -> CLI.Output {
        try await cli.run(
            ["sh", "-c", "cd '\(Self.specs)' && \(command) 2>&1 | '\(CLI.binary.path)' format --db '\(cli.database)'"],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    func latestRun(_ cli: CLI) async throws -> [String: Any] {
        try #require((try await cli.json(["runs"]) as? [[String: Any]])?.first)
    }

    @Test(.enabled(if: hasBacon, "needs Debian's ruby-bacon"), arguments: ["-s", "-p", "-k"])
    func baconsOutputsAreStoredWithTheirSummarysCounts(flag: String) async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await pipe(cli, "bacon -r '\(Self.module)' \(flag) spec/*_spec.rb")
        #expect(output.status == 1, "a spec failed")
        #expect(
            output.stdout.contains("16 tests, 15 assertions, 1 failures, 1 errors")
                || output.stdout.contains("16 specifications (15 requirements), 1 failures, 1 errors")
                || flag == "-k", "the runner's output is echoed")
        let run = try await latestRun(cli)
        #expect(run["tests"] as? Int == 16)
        #expect(run["failed"] as? Int == 2, "1 failure and 1 error")
        #expect(run["skipped"] as? Int == 1, "the spec that checks nothing")
        #expect(run["passed"] as? Int == 13)
        #expect(run["status"] as? String == "failed")
    }

    @Test func aSpecThatPassedOnARetryDoesNotFailTheRun() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = """
            Cart
              - counts one item [FAILED, retrying 1/2]
              - counts one item
              - adds a book

            2 specifications (2 requirements), 0 failures, 0 errors
            """
        let formatted = try await cli.run(["format", "--from", "bacon"], stdin: output + "\n")
        #expect(formatted.status == 0, "\(formatted.stdout)\(formatted.stderr)")
        let run = try await latestRun(cli)
        #expect(run["failed"] as? Int == 0 && run["flaky"] as? Int == 1, "\(run)")
        let failing = try await cli.run(
            ["format", "--from", "bacon"],
            stdin: output.replacingOccurrences(
                of: "  - adds a book", with: "  - adds a book [FAILED]") + "\n")
        #expect(failing.status == 1)
    }

    /// Ruby holds back output to a pipe unless told not to, hence `sync.rb`. A duration measured
    /// by when lines arrive also takes in how late a busy machine runs the reader (a spec that
    /// slept 0.5 s has read as 0.13 s on a loaded 2-core machine), so this checks only that real
    /// Bacon's lines give each spec an outcome and a duration; how arrival times become durations
    /// is checked with given times (`BaconSpecDoxTests.arrivalTimesGiveDurations`).
    @Test(.enabled(if: hasBacon, "needs Debian's ruby-bacon"))
    func specDoxGivesEachSpecAnOutcomeAndADuration() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write(
            "slow_spec.rb",
            """
            describe 'Slow' do
              it 'is quick' do
                true.should.be.true
              end
              it 'sleeps' do
                sleep 0.1
                true.should.be.true
              end
            end
            """)
        try cli.directory.write("sync.rb", "$stdout.sync = true\n")
        let clock = ContinuousClock()
        let started = clock.now
        _ = try await cli.run(
            [
                "sh", "-c",
                "cd '\(cli.directory.url.path)' && bacon -r ./sync.rb -s slow_spec.rb | '\(CLI.binary.path)' format --db '\(cli.database)'",
            ],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let slow = try #require(try await cli.json(["show", "Slow/sleeps"]) as? [String: Any])
        let quick = try #require(try await cli.json(["show", "Slow/is quick"]) as? [String: Any])
        #expect(slow["outcome"] as? String == "passed" && quick["outcome"] as? String == "passed")
        // Each is a time between lines that arrived while the pipeline ran: never negative, and
        // together never more than the pipeline's whole run.
        let durations = [try #require(slow["duration"] as? Double), try #require(quick["duration"] as? Double)]
        #expect(durations.allSatisfy { $0 >= 0 } && durations.reduce(0, +) <= seconds, "\(durations) in \(seconds) s")
    }

    @Test(.enabled(if: hasBacon, "needs Debian's ruby-bacon"))
    func quietOutputKeepsTheVerdictAndTheSpecsItNames() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await pipe(cli, "bacon -r '\(Self.module)' -q spec/*_spec.rb")
        #expect(output.status == 1)
        let run = try await latestRun(cli)
        #expect(run["tests"] as? Int == 3, "the failure, the error and the empty spec its ErrorLog names")
        #expect(run["failed"] as? Int == 2 && run["skipped"] as? Int == 1 && run["crashed"] as? Int == 0)
        let reported = try #require(run["reported"] as? [String: Int], "Bacon's own totals")
        #expect(reported == ["tests": 16, "failures": 1, "errors": 1])
        #expect(run["status"] as? String == "failed")
    }

    @Test(.enabled(if: hasBacon, "needs Debian's ruby-bacon"))
    func aRunnerCutShortLeavesAnInterruptedRun() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await pipe(
            cli, "bacon -r '\(Self.module)' -s spec/nesting_spec.rb spec/outcomes_spec.rb | head -n 6")
        #expect(output.status == 1, "an interrupted run is not a success")
        let run = try await latestRun(cli)
        #expect(run["status"] as? String == "interrupted")
        #expect((run["tests"] as? Int ?? 0) > 0, "what ran before the cut is stored")
    }

    @Test(.enabled(if: InstalledTools.node != nil, "needs node (Debian's nodejs)"))
    func nodesTAPIsStoredWithItsDurations() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write(
            "sample.test.js",
            """
            const test = require('node:test');
            const assert = require('node:assert');
            test('adds', () => assert.strictEqual(1 + 1, 2));
            test('waits', async () => { await new Promise((r) => setTimeout(r, 60)); });
            test('fails', () => assert.strictEqual(1, 2));
            test('later', { skip: 'not yet' }, () => {});
            """)
        let output = try await cli.run(
            [
                "sh", "-c",
                "cd '\(cli.directory.url.path)' && '\(InstalledTools.node ?? "node")' --test --test-reporter=tap sample.test.js | '\(CLI.binary.path)' format --db '\(cli.database)'",
            ],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(output.status == 1)
        #expect(output.stdout.contains("not ok"), "the TAP is echoed")
        let run = try await latestRun(cli)
        #expect(run["source"] as? String == "tap")
        #expect(run["tests"] as? Int == 4)
        #expect(run["failed"] as? Int == 1)
        #expect(run["skipped"] as? Int == 1)
        let waits = try #require(try await cli.json(["show", "waits"]) as? [String: Any])
        #expect((waits["duration"] as? Double ?? 0) >= 0.05)
    }

    @Test func everythingPassingExitsZero() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await cli.run(["format"], stdin: "TAP version 13\nok 1 - a\nok 2 - b\n1..2\n")
        #expect(output.status == 0, "\(output.stderr)")
        await #expect(try latestRun(cli)["passed"] as? Int == 2)
    }
}
