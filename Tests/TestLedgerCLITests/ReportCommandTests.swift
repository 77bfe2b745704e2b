import Foundation
import LedgerTestSupport
import Testing

@Suite struct ReportCommandTests {
    /// Ten runs: a stable test, a flaky one, a broken one, a UI test and a flaky predicate.
    func history() -> String {
        (0..<10).map { index -> String in
            var script = RunScript(revision: "rev\(index / 2)", at: Double(1_700_000_000 + index * 600)).start()
            for unit in 0..<6 { script = script.pass("AppTests.Unit/t\(unit)") }
            script = index % 2 == 0 ? script.fail("AppTests.Sync/testFlaky") : script.pass("AppTests.Sync/testFlaky")
            script =
                index > 5
                ? script.fail("AppIntegrationTests.Store/testBroken")
                : script.pass("AppIntegrationTests.Store/testBroken")
            script = script.pass("AppIntegrationTests.Store/testSave").pass("AppUITests.Login/testLogin", duration: 3)
            let held = index % 3 != 0
            script = script.with(.testStart(.init(at: script.clock, test: "AppUITests.Login/testSpinner", layer: .ui)))
                .with(
                    .predicate(
                        .init(
                            at: script.clock, test: "AppUITests.Login/testSpinner", name: "spinner hidden",
                            expect: .holds, held: held, attempts: held ? 40 : 100, waited: held ? 0.4 : 1, timeout: 1))
                )
                .with(
                    .testEnd(
                        .init(
                            at: script.clock, test: "AppUITests.Login/testSpinner", outcome: held ? .passed : .failed,
                            duration: 1)))
            return script.end().ndjson
        }.joined()
    }

    @Test func pyramidJSONIsTheDocumentedShape() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await cli.run(["ingest", "-"], stdin: history())
        let report = try #require(try await cli.json(["report", "pyramid"]) as? [String: Any])
        let layers = try #require(report["layers"] as? [[String: Any]])
        #expect(layers.map { $0["layer"] as? String } == ["unit", "integration", "ui"])
        #expect(layers.map { $0["tests"] as? Int } == [7, 2, 2])
        for key in ["share", "seconds", "medianSeconds", "failureRate"] {
            #expect(layers.allSatisfy { $0[key] is Double || $0[key] is Int }, "\(key)")
        }
        #expect(report["verdict"] as? String == "pyramid")
        #expect(report["run"] is String)
        #expect((report["reason"] as? String)?.isEmpty == false)
        let table = try await cli.run(["report", "pyramid"])
        #expect(table.stdout.contains("Verdict: pyramid"))
        #expect(table.stdout.contains("█"))
        let markdown = try await cli.run(["report", "pyramid", "--format", "markdown"])
        #expect(markdown.stdout.contains("| layer | tests |"))
    }

    @Test func layerRulesFromTheConfigurationFileApply() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await cli.run(["ingest", "-"], stdin: history())
        try cli.directory.write(
            ".testledger.yml", "layers:\n  - pattern: \"AppTests.Unit/*\"\n    layer: integration\n")
        let report = try #require(try await cli.json(["report", "pyramid"]) as? [String: Any])
        let layers = try #require(report["layers"] as? [[String: Any]])
        #expect(layers.map { $0["tests"] as? Int } == [1, 8, 2])
        try cli.directory.write(".testledger.yml", "layers: [oops")
        let broken = try await cli.run(["report", "pyramid"])
        #expect(broken.status != 0)
        #expect(broken.stderr.contains(".testledger.yml"))
    }

    @Test func flakyJSONHasTheEvidence() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await cli.run(["ingest", "-"], stdin: history())
        let report = try #require(try await cli.json(["report", "flaky"]) as? [String: Any])
        let flaky = try #require(report["flaky"] as? [[String: Any]])
        let sync = try #require(flaky.first { $0["test"] as? String == "AppTests.Sync/testFlaky" })
        #expect(sync["runs"] as? Int == 10)
        #expect(sync["failures"] as? Int == 5)
        #expect(sync["flipRate"] as? Double == 1)
        #expect(sync["retriedPasses"] as? Int == 0)
        #expect(sync["revisionsWithBoth"] as? Int == 5)
        #expect(sync["configuration"] as? String == "")
        #expect(sync["score"] is Double)
        #expect(sync["lastFlake"] is String)
        let broken = try #require(report["broken"] as? [[String: Any]])
        #expect(broken.map { $0["test"] as? String } == ["AppIntegrationTests.Store/testBroken"])
        let predicates = try #require(report["predicates"] as? [[String: Any]])
        #expect(predicates.first?["verdict"] as? String == "flaky")
        #expect(predicates.first?["name"] as? String == "spinner hidden")
        #expect(predicates.first?["suggestedTimeout"] as? Double == 2)
    }

    @Test func failOnFlakyGatesCI() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await cli.run(["ingest", "-"], stdin: history())
        #expect(try await cli.run(["report", "flaky", "--fail-on-flaky"]).status == 1)
        #expect(try await cli.run(["report", "flaky"]).status == 0)
        let narrow = try await cli.run(["report", "flaky", "--runs", "1", "--fail-on-flaky"])
        #expect(narrow.status == 0, "one run shows no flakiness")
        let markdown = try await cli.run(["report", "flaky", "--format", "markdown"])
        #expect(markdown.stdout.contains("### Flaky tests: 2"))
    }

    @Test func runsAreListedNewestFirst() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await cli.run(["ingest", "-"], stdin: history())
        let runs = try #require(try await cli.json(["runs", "--limit", "3"]) as? [[String: Any]])
        #expect(runs.count == 3)
        let starts = runs.compactMap { $0["startedAt"] as? String }
        #expect(starts == starts.sorted(by: >))
        for key in ["id", "source", "startedAt", "tests", "passed", "failed", "skipped"] {
            #expect(runs[0][key] != nil, "\(key)")
        }
        #expect(runs[0]["tests"] as? Int == 11)
    }

    @Test(.enabled(if: InstalledTools.sqlite3, InstalledTools.sqlite3Skip))
    func aNewerDatabaseIsRefused() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await cli.run(["runs"])
        let sqlite = try await ChildProcess.runTool(
            ["sqlite3", cli.database, "INSERT INTO grdb_migrations VALUES ('999_future')"])
        try #require(sqlite.status == 0, "needs the sqlite3 command")
        let output = try await cli.run(["runs"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("newer TestLedger"))
    }
}

/// `report failures` on real runners' output: fastlane trainer's JUnit files from Xcode 14 and 16.
@Suite(.enabled(if: FixtureFiles.available, Comment(rawValue: FixtureFiles.skipReason)))
struct RealFailureGroupTests {
    @Test func realMessagesGroupByCause() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let files = try [
            "junit-fastlane-trainer.xml", "junit-trainer-Xcode16-Mixed-XCTest-SwiftTesting-WithRetries.xml",
        ]
        .map { try #require(FixtureFiles.url($0)).path }
        #expect(try await cli.run(["ingest", "--project", "Fx"] + files).status == 0)
        let groups = try #require(try await cli.json(["report", "failures"]) as? [[String: Any]])
        func group(_ signature: String) -> [String: Any]? { groups.first { $0["signature"] as? String == signature } }
        // One assertion in two files of two targets, its path set aside.
        #expect((group("XCTAssertTrue failed (<path>)")?["tests"] as? [String])?.count == 2, "\(groups)")
        // A parameterized Swift Testing test: six arguments, one cause, two attempts each.
        let ascii = try #require(
            groups.first { ($0["signature"] as? String)?.hasSuffix("has ASCII value <= <n>") == true })
        #expect((ascii["tests"] as? [String])?.count == 6 && ascii["failures"] as? Int == 12)
        // Different words stay apart.
        #expect(groups.filter { ($0["signature"] as? String)?.contains("is not enabled") == true }.count == 2)
    }
}
