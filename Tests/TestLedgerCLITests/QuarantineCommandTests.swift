import Foundation
import LedgerTestSupport
import Testing

/// `testledger quarantine` on a real ledger, and `record` enforcing it on real `swift test` runs.
@Suite(.serialized) struct QuarantineCommandTests {
    func ingestTwoTests(_ cli: CLI) async throws {
        let results = try cli.directory.write(
            "junit.xml",
            #"""
            <testsuite name="s"><testcase classname="App.CartTests" name="testTotal"/>
            <testcase classname="App.CartTests" name="testTax"><failure message="no"/></testcase></testsuite>
            """#)
        let ingested = try await cli.run(["ingest", "--project", "Shop", results.path])
        #expect(ingested.status == 0, "\(ingested.stderr)")
    }

    @Test func anUnknownIdIsRefusedWithTheClosestKnownOnes() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await ingestTwoTests(cli)
        let refused = try await cli.run(["quarantine", "add", "App.CartTests/testTaxes", "--reason", "flaky"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("project Shop has no test App.CartTests/testTaxes"), "\(refused.stderr)")
        #expect(refused.stderr.contains("did you mean App.CartTests/testTax, App.CartTests/testTotal?"))
        #expect(refused.stderr.contains("--force"))
        #expect((try await cli.json(["quarantine", "list"]) as? [Any])?.isEmpty == true, "nothing stored")
        let forced = try await cli.run([
            "quarantine", "add", "App.CartTests/testTaxes", "--reason", "not run yet", "--force",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
    }

    @Test func addListArgsRemoveAndTheTrail() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await ingestTwoTests(cli)
        let environment = ["USER": "ana"]
        let added = try await cli.run(
            ["quarantine", "add", "App.CartTests/testTax", "--mode", "skip", "--reason", "hangs", "--until", "14d"],
            environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try #require(try await cli.json(["quarantine", "list"]) as? [[String: Any]])
        #expect(listed.count == 1)
        #expect(listed.first?["test"] as? String == "App.CartTests/testTax")
        #expect(listed.first?["mode"] as? String == "skip" && listed.first?["by"] as? String == "ana")
        #expect(listed.first?["configuration"] as? String == "*" && listed.first?["until"] is String)
        let swiftTest = try await cli.run(["quarantine", "args", "--for", "swift-test"])
        // As `swift test $(testledger quarantine args --for swift-test)` hands it over: through a shell.
        let substituted = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #"printf '%s\n' $(printf '%s' "$LINE")"#],
            environment: ["LINE": swiftTest.stdout])
        #expect(
            substituted.stdout.split(separator: "\n")
                == ["--skip", #"^(App\.CartTests/testTax|App\.CartTests\.testTax)(/|$)"#])
        let xcodebuild = try await cli.run(["quarantine", "args", "--for", "xcodebuild"])
        #expect(xcodebuild.stdout == "-skip-testing:App/CartTests/testTax\n")
        let removed = try await cli.run(
            ["quarantine", "remove", "App.CartTests/testTax", "--reason", "fixed"], environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        let again = try await cli.run(["quarantine", "remove", "App.CartTests/testTax"])
        #expect(again.status != 0 && again.stderr.contains("not in quarantine: App.CartTests/testTax"))
        let trail = try #require(try await cli.json(["quarantine", "log"]) as? [[String: Any]])
        #expect(trail.map { $0["action"] as? String } == ["add", "remove"])
        #expect(trail.map { $0["reason"] as? String } == ["hangs", "fixed"])
        let table = try await cli.run(["quarantine", "log"])
        #expect(table.stdout.contains("remove") && table.stdout.contains("fixed"))
    }

    /// `testledger record --project PROJECT -- swift test` on a package of this repository.
    static func recordSwiftTest(_ package: String, project: String, scratch: String) -> [String] {
        [
            "record", "--project", project, "--", "swift", "test", "--package-path",
            CLI.packageRoot.appending(path: package).path, "--scratch-path", CLI.scratchPath(for: scratch),
        ]
    }

    @Test func recordSkipsSkippedTestsAndPassesABuildThatOnlyMutedTestsFailed() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let swiftTest = Self.recordSwiftTest(
            "Tests/Fixtures/SwiftTestingSample", project: "Sample", scratch: "SwiftTestingSample")
        let first = try await cli.run(swiftTest)
        #expect(first.status == 1, "two tests of the sample fail: \(first.stderr.suffix(2_000))")
        #expect(first.stdout.contains(#"Test "Nested test display name" passed"#))
        for (test, mode) in [
            ("SampleTests/failsAnExpectation()", "mute"), ("SampleTests/checksEachArgument(value:)", "mute"),
            ("SampleTests.Outer/Inner/nestedPasses()", "skip"),
        ] {
            let added = try await cli.run(["quarantine", "add", test, "--mode", mode, "--reason", "flaky"])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let muted = try await cli.run(swiftTest)
        #expect(muted.status == 0, "\(muted.stdout.suffix(1_000))\(muted.stderr.suffix(1_000))")
        #expect(!muted.stdout.contains("Nested test display name"), "the skipped test did not run")
        #expect(muted.stdout.contains("Test failsAnExpectation() failed"), "a muted test runs")
        #expect(
            muted.stdout.contains(
                "muted (quarantined) failures: SampleTests/checksEachArgument(value:), SampleTests/failsAnExpectation()"
            ))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["muted"] as? Int == 2 && runs.first?["failed"] as? Int == 2, "stored as failures")
        #expect(runs.first?["tests"] as? Int == 7 && runs.last?["tests"] as? Int == 8)

        let released = try await cli.run(["quarantine", "remove", "SampleTests/checksEachArgument(value:)"])
        #expect(released.status == 0, "\(released.stderr)")
        let unmuted = try await cli.run(swiftTest)
        #expect(unmuted.status == 1, "an unmuted failure still fails the build")
        #expect(unmuted.stdout.contains("muted (quarantined) failures: SampleTests/failsAnExpectation()\n"))
    }

    @Test func theAutomaticPolicyMutesAFlakyTestOnceTheEvidenceIsIn() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write(".testledger.yml", "project: Shop\nquarantine:\n  auto: mute\n  after: 6\n")
        var mutedAfter: Int?
        for run in 0..<10 {
            let failure = run % 2 == 0 ? #"><failure message="no"/></testcase>"# : "/>"
            let file = try cli.directory.write(
                "run\(run).xml",
                #"<testsuite name="s" timestamp="2026-10-1\#(run)T10:00:00Z">"#
                    + #"<testcase classname="App.CartTests" name="testTotal"/>"#
                    + #"<testcase classname="App.CartTests" name="testTax""# + failure + "</testsuite>")
            let ingested = try await cli.run(["ingest", file.path])
            #expect(ingested.status == 0, "\(ingested.stderr)")
            if ingested.stdout.contains("testledger: quarantine: muted App.CartTests/testTax automatically (flaky:") {
                mutedAfter = run + 1
            }
        }
        #expect(mutedAfter == 6, "muted once 6 runs were judged")
        let listed = try #require(try await cli.json(["quarantine", "list"]) as? [[String: Any]])
        #expect(listed.map { $0["test"] as? String } == ["App.CartTests/testTax"])
        #expect(listed.first?["automatic"] as? Bool == true && listed.first?["by"] as? String == "testledger")
        let trail = try #require(try await cli.json(["quarantine", "log"]) as? [[String: Any]])
        #expect(trail.count == 1)
        let evidence = trail.first?["evidence"] as? String
        #expect(evidence?.contains(#""strip":"FPFPFP""#) == true, "\(evidence ?? "")")
        let report = try #require(try await cli.json(["report", "flaky"]) as? [String: Any])
        #expect((report["flaky"] as? [[String: Any]])?.first?["quarantined"] as? String == "mute")
    }

    @Test func anAutomaticSkipIsRefusedWithTheReason() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write(".testledger.yml", "quarantine:\n  auto: skip\n")
        let output = try await cli.run(["report", "flaky"])
        #expect(output.status != 0)
        #expect(output.stderr.contains(".testledger.yml") && output.stderr.contains("only muting is automatic"))
    }

    @Test func withAServerTheServersListIsAppliedAndItsSavedCopyWhileItIsDown() async throws {
        let server = try CLI()
        defer { server.directory.remove() }
        try await ingestTwoTests(server)
        let added = try await server.run(["quarantine", "add", "App.CartTests/testTax", "--reason", "flaky"])
        #expect(added.status == 0, "\(added.stderr)")
        let token = try await server.token("Shop", "write")
        let process = try ServerProcess(server)

        let ci = try CLI()
        defer { ci.directory.remove() }
        let environment = ["TESTLEDGER_URL": process.url, "TESTLEDGER_TOKEN": token]
        let listed = try await ci.run(["quarantine", "list", "--project", "Shop"], environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("App.CartTests/testTax") && listed.stderr.isEmpty, "\(listed.stderr)")
        process.stop()

        let results = try ci.directory.write(
            "out/junit.xml",
            #"<testsuite name="s"><testcase classname="App.CartTests" name="testTax"><failure/></testcase></testsuite>"#
        )
        let recorded = try await ci.run(
            ["record", "--project", "Shop", "--junit", results.path, "--", "sh", "-c", "exit 1"],
            environment: environment)
        #expect(recorded.status == 0, "the saved list mutes the one failure: \(recorded.stderr)")
        #expect(recorded.stderr.contains("could not read the quarantine from \(process.url)"))
        #expect(recorded.stderr.contains("using the copy saved"))

        let fresh = try CLI()
        defer { fresh.directory.remove() }
        let none = try await fresh.run(
            ["record", "--project", "Shop", "--junit", results.path, "--", "sh", "-c", "exit 1"],
            environment: environment)
        #expect(none.status == 1, "no saved copy: nothing is muted")
        #expect(none.stderr.contains("none is cached: none applied"), "\(none.stderr)")
    }
}
