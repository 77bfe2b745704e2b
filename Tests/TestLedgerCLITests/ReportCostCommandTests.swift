import Foundation
import LedgerTestSupport
import Testing

/// `report cost` through the CLI on ``CostHistory``: the hand sums, per owner, in each format.
@Suite struct ReportCostCommandTests {
    func ingested() async throws -> CLI {
        let cli = try CLI()
        // Ending two hours ago: the CLI judges flakiness now, and an old history would have recovered.
        let stream = CostHistory.runs(from: Date().timeIntervalSince1970 - 12 * 3_600).map(\.ndjson).joined()
        let file = try cli.directory.write("history.ndjson", stream)
        let ingest = try await cli.run(["ingest", file.path])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        try cli.directory.write(
            ".testledger.yml",
            "owners:\n  - pattern: \"A/flaky\"\n    owners: [\"@acme/ui\"]\n"
                + "  - pattern: \"A/retried\"\n    owners: [\"@acme/core\"]\n")
        return cli
    }

    @Test func theJSONHoldsTheSumsByHandAndAnOwnersShare() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        let report = try #require(try await cli.json(["report", "cost"]) as? [String: Any])
        #expect(report["seconds"] as? Double == 11.5 && report["runs"] as? Int == 10, "\(report)")
        let tests = try #require(report["tests"] as? [[String: Any]])
        #expect(tests.map { $0["test"] as? String } == [CostHistory.flaky, CostHistory.retried])
        #expect(tests.map { $0["seconds"] as? Double } == [9.5, 2])
        #expect(tests.first?["lostRunSeconds"] as? Double == 7.5 && tests.first?["failedSeconds"] as? Double == 2)
        #expect(tests.last?["rerunSeconds"] as? Double == 1 && tests.last?["reruns"] as? Int == 2)
        #expect(tests.map { $0["owners"] as? [String] } == [["@acme/ui"], ["@acme/core"]])
        #expect((report["lostRuns"] as? [[String: Any]])?.count == 2)

        let mine = try #require(try await cli.json(["report", "cost", "--owner", "@acme/core"]) as? [String: Any])
        #expect(mine["seconds"] as? Double == 2, "\(mine)")
        #expect((mine["tests"] as? [[String: Any]])?.map { $0["test"] as? String } == [CostHistory.retried])
        #expect((mine["lostRuns"] as? [[String: Any]])?.isEmpty == true, "A/retried lost no run")
    }

    @Test func theTableLeadsWithTheTotalAndSharesItByOwner() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        let table = try await cli.run(["report", "cost", "--format", "table"])
        #expect(table.status == 0)
        #expect(
            table.stdout.hasPrefix(
                "Flaky tests cost 11.50s of CI time over 10 run(s): 2 test(s), 2 run(s) failed only because of them"),
            "\(table.stdout)")
        #expect(table.stdout.contains("@acme/ui"), "\(table.stdout)")
        let markdown = try await cli.run(["report", "cost", "--since", "3650d", "--format", "markdown"])
        #expect(markdown.stdout.contains("### Runs that failed only because of flaky tests: 2"), "\(markdown.stdout)")
    }
}
