import Foundation
import LedgerTestSupport
import Testing

/// Runs the real `bacon -r Formatters/bacon/testledger -o TestLedger` on Tests/Fixtures/BaconSpecs,
/// recording through the built `testledger ingest -`, and the RubyMotion stand-in driver
/// (Formatters/bacon/test/rubymotion_hooks.rb) the same way; then reads the store back.
@Suite(.enabled(if: InstalledTools.bacon != nil, "bacon (Debian's ruby-bacon) is not installed"))
struct BaconModuleTests {
    static let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/BaconSpecs")
    static let module = CLI.packageRoot.appending(path: "Formatters/bacon/testledger").path
    static let driver = CLI.packageRoot.appending(path: "Formatters/bacon/test/rubymotion_hooks.rb").path
    static let fakeRubyMotion = CLI.packageRoot.appending(path: "Formatters/bacon/test/fake_rubymotion.rb").path
    static let summary = "16 specifications (15 requirements), 1 failures, 1 errors"

    /// `bacon -r testledger -o TestLedger spec/*_spec.rb` in the fixture, recording into `cli`'s store.
    func bacon(_ cli: CLI, environment: [String: String] = [:]) async throws -> CLI.Output {
        let specs = try FileManager.default.contentsOfDirectory(atPath: Self.fixture.appending(path: "spec").path)
            .filter { $0.hasSuffix("_spec.rb") }.sorted().map { "spec/" + $0 }
        return try await launch(
            try #require(InstalledTools.bacon), ["-r", Self.module, "-o", "TestLedger"] + specs, cli: cli,
            environment: environment)
    }

    func launch(
        _ executable: String, _ arguments: [String], cli: CLI, environment: [String: String],
        in directory: URL = Self.fixture
    ) async throws -> CLI.Output {
        try await ChildProcess.runTool(
            [executable] + arguments,
            environment: ["TESTLEDGER_BIN": CLI.binary.path, "TESTLEDGER_DB": cli.database].merging(environment) {
                $1
            }, in: directory)
    }

    /// Writes `specs` to spec/retry_spec.rb in `cli`'s directory (where the markers of specs that
    /// fail once go) and runs `bacon -r testledger -o TestLedger` on it there, project "Retries".
    func bacon(_ specs: String, _ cli: CLI, environment: [String: String] = [:]) async throws -> CLI.Output {
        try cli.directory.write("spec/retry_spec.rb", specs)
        return try await launch(
            try #require(InstalledTools.bacon), ["-r", Self.module, "-o", "TestLedger", "spec/retry_spec.rb"], cli: cli,
            environment: ["TESTLEDGER_PROJECT": "Retries"].merging(environment) { $1 }, in: cli.directory.url)
    }

    /// The outcome of each attempt of `test` in the latest run, in order.
    func attempts(_ cli: CLI, _ test: String) async throws -> [String] {
        try await #require(try show(cli, test)["attempts"] as? [String], "\(test)")
    }

    func show(_ cli: CLI, _ test: String) async throws -> [String: Any] {
        try #require(try await cli.json(["show", test]) as? [String: Any], "\(test)")
    }

    func predicates(_ cli: CLI, _ test: String) async throws -> [[String: Any]] {
        try await #require(try show(cli, test)["predicates"] as? [[String: Any]])
    }

    @Test func recordsEverySpecWithBaconsOwnCountsAndExitStatus() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await bacon(cli)
        #expect(output.status == 1, "Bacon exits 1 when a spec failed")
        #expect(output.stdout.hasSuffix(Self.summary + "\n"))
        #expect(!output.stderr.contains("testledger"), "\(output.stderr)")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run["source"] as? String == "bacon")
        #expect(run["project"] as? String == "BaconSpecs")
        #expect(run["tests"] as? Int == 16, "16 specifications")
        #expect(run["failed"] as? Int == 2, "1 failure + 1 error")
        #expect(run["skipped"] as? Int == 1, "the empty spec")
        #expect(run["passed"] as? Int == 13)
        #expect(run["status"] as? String == "failed")
    }

    @Test func withAServerTheModuleSendsThroughUpload() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token("Specs")
        let server = try ServerProcess(cli)
        defer { server.stop() }
        let elsewhere = cli.directory.path("not-this.sqlite")
        let output = try await bacon(
            cli,
            environment: [
                "TESTLEDGER_URL": server.url, "TESTLEDGER_TOKEN": token, "TESTLEDGER_DB": elsewhere,
                "TESTLEDGER_SPOOL": cli.directory.path("spool"),
            ])
        #expect(output.stdout.hasSuffix(Self.summary + "\n"))
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["project"] as? String == "Specs")
        #expect(runs.first?["tests"] as? Int == 16)
        await #expect(try show(cli, "Outcomes/fails")["outcome"] as? String == "failed")
    }

    @Test func nestingOutcomesIssuesDurationsAndLayers() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await bacon(cli)
        let coupon = try await show(cli, "Cart with one book and a coupon/still counts one item")
        #expect(coupon["outcome"] as? String == "passed")
        #expect(coupon["file"] as? String == "spec/nesting_spec.rb")
        #expect(coupon["line"] as? Int == 14)
        await #expect(try show(cli, "Cart/is back at the top level")["outcome"] as? String == "passed")

        let failed = try await show(cli, "Outcomes/fails")
        #expect(failed["outcome"] as? String == "failed")
        let issue = try #require((failed["issues"] as? [[String: Any]])?.first)
        #expect(issue["message"] as? String == "2.==(3) failed")
        #expect(issue["file"] as? String == "spec/outcomes_spec.rb")
        #expect(issue["line"] as? Int == 7)
        #expect(issue["kind"] as? String == "assertion")
        let raised = try await show(cli, "Outcomes/raises")
        #expect(raised["outcome"] as? String == "error")
        #expect((raised["issues"] as? [[String: Any]])?.first?["message"] as? String == "ArgumentError: boom")
        let empty = try await show(cli, "Outcomes/asserts nothing")
        #expect(empty["outcome"] as? String == "skipped")
        #expect((empty["issues"] as? [[String: Any]])?.first?["kind"] as? String == "missing")

        await #expect((try show(cli, "Slow/sleeps 50 ms")["duration"] as? Double ?? 0) >= 0.05)
        await #expect(try show(cli, "Login screen/shows its title")["layer"] as? String == "ui")
        await #expect(try show(cli, "Login screen after a tap/still shows its title")["layer"] as? String == "ui")
        await #expect(try show(cli, "Cart/starts empty")["layer"] as? String != "ui")
    }

    @Test func activitiesCapturesAndPredicates() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await bacon(cli)
        let detail = try await show(cli, "Checkout/records nested activities and a capture")
        let outer = try #require((detail["activities"] as? [[String: Any]])?.first)
        #expect(outer["name"] as? String == "Fill the cart")
        #expect(outer["outcome"] as? String == "passed")
        #expect((outer["children"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Add a book", "Add a pen"])
        let capture = try #require((detail["captures"] as? [[String: Any]])?.first)
        #expect(capture["verifier"] as? String == "AlertVerifier")
        let fields = try #require(capture["fields"] as? [String: Any])
        #expect(fields["title"] as? String == "Pay?")
        #expect(fields["animated"] as? Bool == true)
        #expect((fields["actions"] as? [[String: Any]])?.map { $0["style"] as? String } == ["cancel", "default"])
        let declined = try await show(cli, "Checkout/marks the activity a failure happened in")
        #expect((declined["activities"] as? [[String: Any]])?.first?["outcome"] as? String == "failed")

        let late = try await #require(try predicates(cli, "Checkout/waits for a total that arrives late").first)
        #expect(late["name"] as? String == "total shown")
        #expect(late["held"] as? Bool == true)
        #expect((late["attempts"] as? Int ?? 0) > 1)
        #expect((late["waited"] as? Double ?? 0) >= 0.05)
        #expect(late["timeout"] as? Double == 1)
        #expect(late["file"] as? String == "spec/recording_spec.rb")
        #expect(late["line"] as? Int == 22)
        let never = try await #require(try predicates(cli, "Checkout/gives up on a receipt that never prints").first)
        #expect(never["held"] as? Bool == false)
        #expect((never["waited"] as? Double ?? 0) >= 0.1)
        #expect(never["timeout"] as? Double == 0.1)
        #expect(never["interval"] as? Double == 0.02)
        let spinner = try await predicates(cli, "Checkout/waits for the spinner to stop")
        #expect(spinner.map { $0["expect"] as? String } == ["holds", "doesntHold"])
        #expect(spinner.allSatisfy { $0["held"] as? Bool == true })
        #expect((spinner.last?["attempts"] as? Int ?? 0) > 1, "doesnt_hold waited for the spinner to stop")
    }

    @Test func theRunIDAndAnEventsFileComeFromTheEnvironment() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let run = "0B5E55ED-0000-4000-8000-00000000BAC0"
        _ = try await bacon(cli, environment: ["TESTLEDGER_RUN": run, "TESTLEDGER_PROJECT": "Breakfast"])
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.map { $0["id"] as? String } == [run])
        #expect(runs.first?["project"] as? String == "Breakfast")

        let other = try CLI()
        defer { other.directory.remove() }
        let events = other.directory.path("events.ndjson")
        let output = try await bacon(other, environment: ["TESTLEDGER_EVENTS": events])
        #expect(output.status == 1)
        #expect(!FileManager.default.fileExists(atPath: other.database), "the events went to the file")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 40)
        #expect(lines.first?.contains("\"type\":\"run.start\"") == true)
        #expect(lines.last?.contains("\"type\":\"run.end\"") == true)
        let ingested = try await other.run(["ingest", events])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect((try await other.json(["runs"]) as? [[String: Any]])?.first?["tests"] as? Int == 16)
    }

    @Test func quarantinedSpecsAreSkippedAndMutedFailuresDoNotFailTheRun() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await bacon(cli)
        for (test, mode) in [("Outcomes/fails", "mute"), ("Cart with one book/counts one item", "skip")] {
            let added = try await cli.run([
                "quarantine", "add", test, "--mode", mode, "--reason", "flaky", "--project", "BaconSpecs",
            ])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let oneMuted = try await bacon(cli)
        #expect(oneMuted.status == 1, "the error of Outcomes/raises still fails the run")
        #expect(oneMuted.stdout.hasSuffix("15 specifications (14 requirements), 1 failures, 1 errors\n"))
        #expect(!oneMuted.stdout.contains("- counts one item"), "the skipped spec did not run")
        #expect(oneMuted.stderr.contains("testledger: skipped (quarantined): Cart with one book/counts one item"))
        #expect(oneMuted.stderr.contains("testledger: muted (quarantined) failures: Outcomes/fails\n"))

        let added = try await cli.run([
            "quarantine", "add", "Outcomes/raises", "--reason", "flaky", "--project", "BaconSpecs",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let allMuted = try await bacon(cli)
        #expect(allMuted.status == 0, "only muted specs failed: \(allMuted.stderr)")
        #expect(
            allMuted.stdout.hasSuffix("15 specifications (14 requirements), 1 failures, 1 errors\n"),
            "Bacon's summary is true")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["muted"] as? Int == 2 && runs.first?["failed"] as? Int == 2)
        #expect(runs.first?["skipped"] as? Int == 2, "the empty spec and the quarantined one")
        let skipped = try await show(cli, "Cart with one book/counts one item")
        #expect(
            skipped["attempts"] as? [String] == ["skipped"] && skipped["run"] as? String == runs.first?["id"] as? String
        )

        // Where the module cannot ask testledger (here: events to a file), the list is a file.
        let args = try await cli.run(["quarantine", "args", "--for", "bacon", "--project", "BaconSpecs"])
        let assignment = args.stdout.trimmingCharacters(in: .newlines)
        #expect(assignment.hasPrefix("TESTLEDGER_QUARANTINE="), "\(args.stdout)\(args.stderr)")
        let offline = try await bacon(
            cli,
            environment: [
                "TESTLEDGER_QUARANTINE": String(assignment.dropFirst("TESTLEDGER_QUARANTINE=".count)),
                "TESTLEDGER_EVENTS": cli.directory.path("events.ndjson"),
            ])
        #expect(offline.status == 0 && !offline.stdout.contains("- counts one item"), "\(offline.stderr)")
    }

    /// A spec that fails the first time only (a marker file beside it says it ran), one that
    /// passes, and a context that checks that the before and after blocks ran for every attempt.
    static let failsOnce = #"""
        $befores = $afters = 0
        describe 'Retried' do
          before { $befores += 1; @items = [] }
          after { $afters += 1 }

          it 'passes' do
            @items << 1
            @items.size.should == 1
          end

          it 'fails once' do
            activity('Add an item') { @items << 1 }
            marker = File.join(__dir__, 'failed-once')
            first = !File.exist?(marker)
            File.write(marker, '')
            @items.size.should == 1
            first.should == false
          end
        end

        describe 'Hooks' do
          it 'ran for every attempt' do
            [$befores, $afters].should == [3, 3]
          end
        end
        """#

    static let alwaysFails = #"""
        describe 'Retried' do
          it 'always fails' do
            2.should == 3
          end

          it 'checks nothing' do
          end

          it 'is skipped' do
            1.should == 1
          end

          it 'passes' do
            1.should == 1
          end
        end
        """#

    @Test func aSpecThatFailsOnceIsRetriedAndBaconCountsItsLastAttempt() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await bacon(Self.failsOnce, cli, environment: ["TESTLEDGER_TEST_RETRIES": "2"])
        #expect(output.status == 0, "every spec passed in the end: \(output.stdout)\(output.stderr)")
        #expect(
            output.stdout == """
                Retried
                  - passes
                  - fails once [FAILED, retrying 1/2]
                  - fails once

                Hooks
                  - ran for every attempt

                3 specifications (4 requirements), 0 failures, 0 errors

                """, "no backtrace of the failed attempt, nor its failure or requirements in the counts")
        #expect(output.stderr.contains("testledger: passed on a retry: Retried/fails once\n"), "\(output.stderr)")
        #expect(!output.stderr.contains("recording stopped"), "\(output.stderr)")

        await #expect(try attempts(cli, "Retried/fails once") == ["failed", "passed"])
        await #expect(try attempts(cli, "Retried/passes") == ["passed"], "a passing spec runs once")
        await #expect(try attempts(cli, "Hooks/ran for every attempt") == ["passed"])
        let run = try #require((try await cli.json(["runs"]) as? [[String: Any]])?.first)
        #expect(run["tests"] as? Int == 3 && run["failed"] as? Int == 0 && run["flaky"] as? Int == 1)
        #expect(run["status"] as? String == "passed")
    }

    @Test func anAlwaysFailingSpecRunsRetriesPlusOneTimesEachAnAttempt() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let events = cli.directory.path("events.ndjson")
        let output = try await bacon(
            Self.alwaysFails, cli, environment: ["TESTLEDGER_TEST_RETRIES": "2", "TESTLEDGER_EVENTS": events])
        #expect(output.status == 1)
        #expect(
            output.stdout.hasPrefix(
                """
                Retried
                  - always fails [FAILED, retrying 1/2]
                  - always fails [FAILED, retrying 2/2]
                  - always fails [FAILED]
                  - checks nothing [MISSING]
                  - is skipped
                  - passes

                """), "\(output.stdout)")
        #expect(output.stdout.hasSuffix("4 specifications (3 requirements), 1 failures, 0 errors\n"))
        #expect(output.stdout.components(separatedBy: "Bacon::Error: 2.==(3) failed").count == 2, "one backtrace")

        let recorded = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["test"] as? String == "Retried/always fails" }
        let attemptsOf = { (type: String) in
            recorded.filter { $0["type"] as? String == type }.map { $0["attempt"] as? Int }
        }
        #expect(attemptsOf("test.start") == [1, 2, 3] && attemptsOf("test.end") == [1, 2, 3])
        #expect(attemptsOf("issue") == [1, 2, 3], "each attempt has its own issue")
        let ingested = try await cli.run(["ingest", events])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        await #expect(try attempts(cli, "Retried/always fails") == ["failed", "failed", "failed"])
        await #expect(try attempts(cli, "Retried/checks nothing") == ["skipped"], "an empty spec is not retried")
        await #expect(try attempts(cli, "Retried/passes") == ["passed"])
    }

    @Test func withoutAWholeNumberOfRetriesNothingIsRetried() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        for retries in [nil, "", "0", "two", "-1"] {
            try? FileManager.default.removeItem(atPath: cli.directory.path("spec/failed-once"))
            let output = try await bacon(
                Self.failsOnce, cli, environment: retries.map { ["TESTLEDGER_TEST_RETRIES": $0] } ?? [:])
            #expect(output.status == 1, "\(retries ?? "unset")")
            #expect(!output.stdout.contains("retrying"), "\(retries ?? "unset")")
            #expect(output.stdout.contains("  - fails once [FAILED]\n"), "\(retries ?? "unset")")
            await #expect(try attempts(cli, "Retried/fails once") == ["failed"], "\(retries ?? "unset")")
        }
    }

    @Test func mutedEmptyAndSkippedSpecsAreNotRetried() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let quarantine = try cli.directory.write(
            "quarantine.json",
            #"""
            [{"test": "Retried/always fails", "mode": "mute", "configuration": "*", "reason": "flaky"},
             {"test": "Retried/is skipped", "mode": "skip", "configuration": "*", "reason": "flaky"}]
            """#)
        let output = try await bacon(
            Self.alwaysFails, cli,
            environment: ["TESTLEDGER_TEST_RETRIES": "2", "TESTLEDGER_QUARANTINE": quarantine.path])
        #expect(output.status == 0, "only the muted spec failed: \(output.stderr)")
        #expect(!output.stdout.contains("retrying"), "\(output.stdout)")
        #expect(!output.stdout.contains("- is skipped"))
        #expect(output.stdout.hasSuffix("3 specifications (2 requirements), 1 failures, 0 errors\n"))
        #expect(output.stderr.contains("testledger: muted (quarantined) failures: Retried/always fails\n"))
        await #expect(try attempts(cli, "Retried/always fails") == ["failed"])
        await #expect(try attempts(cli, "Retried/checks nothing") == ["skipped"])
        await #expect(try attempts(cli, "Retried/is skipped") == ["skipped"])
    }

    @Test func aMissingBinaryLeavesTheRunAloneWithOneWarning() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await bacon(cli, environment: ["TESTLEDGER_BIN": cli.directory.path("no-such-testledger")])
        #expect(output.status == 1, "Bacon's own exit status")
        #expect(output.stdout.hasSuffix(Self.summary + "\n"))
        #expect(output.stderr.components(separatedBy: "testledger: recording stopped").count == 2, "one warning")
        #expect(!FileManager.default.fileExists(atPath: cli.database))

        let disabled = try await bacon(cli, environment: ["TESTLEDGER_DISABLE": "1"])
        #expect(disabled.stdout == output.stdout)
        #expect(disabled.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.database))
    }

    @Test(.enabled(if: InstalledTools.ruby != nil, "ruby is not installed"))
    func rubyMotionHooksRecordLookupsAndFunctionalContexts() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await launch(
            try #require(InstalledTools.ruby), [Self.driver], cli: cli,
            environment: ["output": "testledger", "TESTLEDGER_PROJECT": "Motion"])
        #expect(output.status == 3, "RubyMotion exits with failures + errors: \(output.stderr)")
        #expect(output.stdout.contains("  - fails with a message [FAILED - 2.==(3) failed]\n"))
        #expect(output.stdout.hasSuffix("10 specifications (6 requirements), 2 failures, 1 errors\n"))
        let run = try #require((try await cli.json(["runs"]) as? [[String: Any]])?.first)
        #expect(run["tests"] as? Int == 10)
        #expect(run["project"] as? String == "Motion")

        let button = try await show(cli, "Login screen/finds the login button once it appears")
        #expect(button["layer"] as? String == "ui")
        #expect((button["file"] as? String)?.hasSuffix("Formatters/bacon/test/rubymotion_hooks.rb") == true)
        #expect(button["line"] as? Int == 36)
        let found = try #require((button["predicates"] as? [[String: Any]])?.first)
        #expect(found["name"] as? String == "view 'Log in'")
        #expect(found["held"] as? Bool == true)
        #expect((found["attempts"] as? Int ?? 0) > 1, "RubyMotion's lookup retried until the view appeared")
        #expect(found["timeout"] as? Double == 0.3)
        await #expect(
            try predicates(cli, "Login screen/finds both text fields").first?["name"] as? String
                == "views FakeTextField")

        let missing = try await show(cli, "Login screen/cannot find a sign-up button")
        #expect(missing["outcome"] as? String == "error")
        let notFound = try #require((missing["predicates"] as? [[String: Any]])?.first)
        #expect(notFound["held"] as? Bool == false)
        #expect((notFound["waited"] as? Double ?? 0) >= 0.3)

        let change = try await #require(try predicates(cli, "Login screen/sees the progress change").first)
        #expect(change["name"] as? String == "wait_for_change 'value'")
        #expect(change["held"] as? Bool == true)
        let timeout = try await show(cli, "Login screen/times out waiting for a change")
        #expect(timeout["outcome"] as? String == "failed")
        #expect((timeout["predicates"] as? [[String: Any]])?.first?["held"] as? Bool == false)
        #expect((timeout["predicates"] as? [[String: Any]])?.first?["timeout"] as? Double == 0.1)

        await #expect(try show(cli, "Calculator/fails with a message")["outcome"] as? String == "failed")
        await #expect(try show(cli, "Calculator/raises")["outcome"] as? String == "error")
        await #expect(try show(cli, "Calculator/asserts nothing")["outcome"] as? String == "skipped")
        await #expect(try show(cli, "Calculator/adds")["layer"] as? String != "ui")
        await #expect(try show(cli, "with memory/recalls the last result")["outcome"] as? String == "passed")
    }

    @Test(.enabled(if: InstalledTools.ruby != nil, "ruby is not installed"))
    func rubyMotionRetriesACopyOfTheFailingSpec() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let driver = try cli.directory.write(
            "motion_retries.rb",
            """
            require '\(Self.fakeRubyMotion)'
            require '\(Self.module)'

            describe 'Motion' do
              before { @items = [] }

              it 'fails once' do
                @items << 1
                marker = File.join(__dir__, 'failed-once')
                first = !File.exist?(marker)
                File.write(marker, '')
                @items.size.should.equal 1
                first.should.equal false
              end

              it 'always fails' do
                1.should.equal 2
              end
            end

            Bacon.run

            """)
        let output = try await launch(
            try #require(InstalledTools.ruby), [driver.path], cli: cli,
            environment: ["output": "testledger", "TESTLEDGER_PROJECT": "Motion", "TESTLEDGER_TEST_RETRIES": "1"],
            in: cli.directory.url)
        #expect(output.status == 1, "RubyMotion exits with the last attempts' failures: \(output.stderr)")
        #expect(
            output.stdout.hasPrefix(
                """
                Motion
                  - fails once [FAILED - true.==(false) failed, retrying 1/1]
                  - fails once
                  - always fails [FAILED - 1.==(2) failed, retrying 1/1]
                  - always fails [FAILED - 1.==(2) failed]

                """), "\(output.stdout)")
        #expect(output.stdout.hasSuffix("2 specifications (3 requirements), 1 failures, 0 errors\n"))
        #expect(output.stdout.components(separatedBy: "Bacon::Error: 1.==(2) failed").count == 2, "one backtrace")
        #expect(!output.stdout.contains("true.==(false) failed\n"), "the failed attempt left no backtrace")
        await #expect(try attempts(cli, "Motion/fails once") == ["failed", "passed"])
        await #expect(try attempts(cli, "Motion/always fails") == ["failed", "failed"])
    }
}
