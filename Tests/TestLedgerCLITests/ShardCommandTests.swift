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
}
