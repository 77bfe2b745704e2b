import Foundation
import LedgerTestSupport
import Testing

/// `record --shard I/N` on Tests/Fixtures/ShardedSuite: 20 XCTest and 20 Swift Testing tests, split
/// four ways by a ledger that has timed all but one of them.
@Suite(.serialized) struct RecordShardTests {
    static let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/ShardedSuite").path
    static let heavy = (1...4).map { "ShardedTests.ShardedXCTests/testCase0\($0)" }
    static let new = "ShardedTests.ShardedSwiftTests/case20()"

    /// Three earlier runs: four XCTests of 3 s, the rest quick; `case20()` is not in them.
    func history(run: Int) -> String {
        let xctests = (1...20).map { index in
            #"<testcase classname="ShardedTests.ShardedXCTests" name="testCase\#(String(format: "%02d", index))" time="\#(index <= 4 ? "3" : "0.05")"/>"#
        }
        let swiftTests = (1...19).map { index in
            #"<testcase classname="ShardedTests.ShardedSwiftTests" name="case\#(String(format: "%02d", index))()" time="0.05"/>"#
        }
        return #"<testsuite name="s" timestamp="2026-11-0\#(run)T10:00:00">"# + (xctests + swiftTests).joined()
            + "</testsuite>"
    }

    @Test func fourShardsRunEveryTestOnceTheNewOneIncludedAndSpreadTheSlowOnes() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        for run in 1...3 {
            try cli.directory.write("history\(run).xml", history(run: run))
            #expect(try await cli.run(["ingest", "--project", "Sharded", "history\(run).xml"]).status == 0)
        }
        var announcements: [String] = []
        for index in 1...4 {
            let output = try await cli.run([
                "record", "--project", "Sharded", "--revision", "c0ffee", "--shard", "\(index)/4", "--", "swift",
                "test", "--package-path",
                Self.fixture, "--scratch-path", CLI.scratchPath(for: "ShardedSuite"),
            ])
            #expect(output.status == 0, "\(output.stdout.suffix(2_000))\(output.stderr.suffix(2_000))")
            announcements += output.stderr.split(separator: "\n").filter { $0.contains("shard \(index)/4:") }.map(
                String.init)
        }
        let rows = try await ConcurrentCreationTests.query(
            cli.database,
            """
            SELECT run.uuid || ' ' || test.key FROM result JOIN run ON run.id = result.runId
            JOIN test ON test.id = result.testId WHERE run.source = 'swift-test' ORDER BY run.startedAt, test.key
            """)
        let byRun = Dictionary(grouping: rows.map { $0.split(separator: " ", maxSplits: 1) }) { String($0[0]) }
            .mapValues { $0.map { String($0[1]) } }
        #expect(byRun.count == 4, "\(byRun.keys)")
        let executed = byRun.values.flatMap { $0 }
        #expect(executed.count == 40 && Set(executed).count == 40, "every test once: \(executed.sorted())")
        #expect(byRun.values.filter { $0.contains(Self.new) }.count == 1, "the new test runs in one shard")
        #expect(byRun.values.allSatisfy { Set($0).intersection(Self.heavy).count == 1 }, "one slow test each")
        #expect(announcements.count == 4, "\(announcements)")
        #expect(announcements.contains { $0.contains("(1 never timed, weighed at the median)") })
    }

    @Test func aTestGivenToTheShardThatDidNotRunFailsTheJobNamed() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await cli.run([
            "record", "--project", "Sharded", "--shard", "1/1", "--", "swift", "test", "--package-path", Self.fixture,
            "--scratch-path", CLI.scratchPath(for: "ShardedSuite"), "--skip", "ShardedXCTests.testCase07",
        ])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains("shard 1/1: 1 of its tests did not run: ShardedTests.ShardedXCTests/testCase07"),
            "\(output.stderr.suffix(2_000))")
    }

    /// `shard plan --for swift-test` for a runner `record` does not wrap: a whole suite by its name.
    @Test func planArgumentsForSwiftTestRunEachSuiteInOneShard() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("history.xml", history(run: 1))
        #expect(try await cli.run(["ingest", "--project", "Sharded", "history.xml"]).status == 0)
        for index in 1...2 {
            let line = try await cli.run([
                "shard", "plan", "--project", "Sharded", "--shards", "2", "--by", "suite", "--for", "swift-test",
                "--index", "\(index)",
            ])
            #expect(line.status == 0 && line.stdout.hasPrefix("--filter "), "\(line.stdout)\(line.stderr)")
            // As `swift test $(testledger shard plan …)` hands it over: through a shell.
            let split = try await ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", #"printf '%s\n' $(printf '%s' "$LINE")"#],
                environment: ["LINE": line.stdout])
            let filters = split.stdout.split(separator: "\n").map(String.init)
            #expect(filters.count == 2, "one suite each: \(filters)")
            let output = try await cli.run(
                [
                    "record", "--project", "Sharded", "--", "swift", "test", "--package-path", Self.fixture,
                    "--scratch-path",
                    CLI.scratchPath(for: "ShardedSuite"),
                ] + filters)
            #expect(output.status == 0, "\(output.stderr.suffix(2_000))")
        }
        let executed = try await ConcurrentCreationTests.query(
            cli.database,
            "SELECT test.key FROM result JOIN run ON run.id = result.runId JOIN test ON test.id = result.testId "
                + "WHERE run.source = 'swift-test'")
        #expect(executed.count == 40 && Set(executed).count == 40, "each suite in one shard: \(executed.sorted())")
    }

    @Test func aShardArgumentOutOfRangeIsRefused() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await cli.run(["record", "--shard", "5/4", "--", "swift", "test"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("--shard takes I/N"), "\(output.stderr)")
    }
}
