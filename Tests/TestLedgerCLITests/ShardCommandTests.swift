import Foundation
import LedgerTestSupport
import Testing

/// `testledger shard plan` on a ledger of real ingests.
@Suite struct ShardCommandTests {
    func junit() -> String {
        let unit = (1...12).map { #"<testcase classname="App.Unit" name="t\#($0)" time="0.\#($0)"/>"# }
        let ui = [
            #"<testcase classname="App.UI" name="slow" time="5"/>"#,
            #"<testcase classname="App.UI" name="slower" time="7"/>"#,
        ]
        let failing = #"<testcase classname="App.Flaky" name="fails" time="1"><failure message="x"/></testcase>"#
        return #"<testsuite name="s">"# + (unit + ui + [failing]).joined() + "</testsuite>"
    }

    @Test func everyTestInExactlyOneShardTheSamePlanFromEveryProcess() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        for run in 1...3 {
            try cli.directory.write("r\(run).xml", junit())
            #expect(try await cli.run(["ingest", "--project", "Shop", "r\(run).xml"]).status == 0)
        }
        let first = try await cli.run(["shard", "plan", "--shards", "3", "--format", "json"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try await cli.run(["shard", "plan", "--shards", "3", "--format", "json"])
        #expect(second.stdout == first.stdout, "the same plan from another process")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let shards = try #require(plan["shards"] as? [[String: Any]])
        #expect(shards.map { $0["index"] as? Int } == [1, 2, 3])
        let tests = shards.flatMap { $0["tests"] as? [String] ?? [] }
        #expect(tests.count == 15 && Set(tests).count == 15, "\(tests)")
        // The slower UI test alone is the heaviest shard; the failing test never passed, so it is unknown.
        #expect(shards[0]["tests"] as? [String] == ["App.UI/slower"])
        #expect(shards[0]["seconds"] as? Double == 7)
        #expect(plan["unknown"] as? [String] == ["App.Flaky/fails"])

        let suites = try await cli.json(["shard", "plan", "--shards", "2", "--by", "suite"]) as? [String: Any]
        let bySuite = try #require(suites?["shards"] as? [[String: Any]]).map { $0["tests"] as? [String] ?? [] }
        #expect(bySuite.flatMap { $0 }.sorted() == ["App.Flaky", "App.UI", "App.Unit"])
        #expect(try await cli.run(["shard", "plan", "--shards", "0"]).status != 0)
    }

    /// Three runs whose tests begin 30 s after the run (a build, a launch): each shard carries that.
    static var timedHistory: String {
        var lines: [String] = []
        for run in 0..<3 {
            let id = "6f1c0a52-3b7e-4d7a-9a51-0c2d4e8f9b1\(run)"
            let start = 1_700_000_000 + run * 1_000
            lines.append(#"{"v":1,"type":"run.start","run":"\#(id)","at":\#(start),"project":"FC","source":"xctest"}"#)
            for (index, seconds) in [5, 3, 1, 1].enumerated() {
                let at = start + 30 + index * 10
                lines.append(
                    #"{"v":1,"type":"test.start","run":"\#(id)","at":\#(at),"test":"FC.S/t\#(index)","attempt":1}"#)
                lines.append(
                    #"{"v":1,"type":"test.end","run":"\#(id)","at":\#(at + seconds),"test":"FC.S/t\#(index)","attempt":1,"outcome":"passed","duration":\#(seconds)}"#
                )
            }
            lines.append(#"{"v":1,"type":"run.end","run":"\#(id)","at":\#(start + 100)}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func expectFixedCostCarried(_ cli: CLI, database: String) async throws {
        #expect(try await cli.run(["ingest", "--db", database, "-"], stdin: Self.timedHistory).status == 0)
        let plan = try await cli.run(["shard", "plan", "--db", database, "--shards", "2", "--format", "json"])
        #expect(
            plan.stdout.filter { !$0.isWhitespace }
                == #"{"shards":[{"index":1,"seconds":35,"tests":["FC.S/t0"]},{"index":2,"seconds":35,"tests":["FC.S/t1","FC.S/t2","FC.S/t3"]}],"unknown":[]}"#,
            "\(plan.stdout)\(plan.stderr)")
        let replay = try #require(
            try await cli.json(["shard", "plan", "--db", database, "--shards", "2", "--replay"]) as? [String: Any])
        let runs = try #require(replay["runs"] as? [[String: Any]])
        #expect(
            runs.map { $0["run"] as? String } == (0..<3).reversed().map { "6f1c0a52-3b7e-4d7a-9a51-0c2d4e8f9b1\($0)" })
        #expect(runs.allSatisfy { ($0["shards"] as? [[String: Any]])?.map { $0["actual"] as? Double } == [35, 35] })
    }

    @Test func eachShardCarriesTheTimeBeforeARunsFirstTest() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await expectFixedCostCarried(cli, database: cli.database)
    }

    @Test(.enabled(if: TestPostgres.available, "needs TESTLEDGER_TEST_DATABASE_URL (a PostgreSQL server)"))
    func postgresPlansAlike() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let postgres = try #require(TestPostgres.freshURL())
        defer { TestPostgres.drop(postgres) }
        try await expectFixedCostCarried(cli, database: postgres)
    }
}
