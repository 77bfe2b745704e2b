import Foundation
import LedgerTestSupport
import Testing

@Suite struct PruneCommandTests {
    @Test func pruneRemovesOldRunsAndSaysWhatItKept() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        for (day, date) in ["2020-01-01", "2020-01-02", "2099-01-01"].enumerated() {
            let file = try cli.directory.write(
                "run\(day).xml",
                #"<testsuite name="s" timestamp="\#(date)T10:00:00Z"><testcase classname="A" name="t\#(day)"/>"#
                    + #"<testcase classname="A" name="flaky"/></testsuite>"#)
            #expect(try await cli.run(["ingest", "--project", "Shop", file.path]).status == 0)
        }
        #expect(
            try await cli.run(["quarantine", "add", "A/flaky", "--reason", "flaky", "--project", "Shop"]).status == 0)
        let pruned = try await cli.run(["prune", "--older-than", "2021-01-01"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(
            pruned.stdout.contains(
                "pruned 0 run(s) and 2 result(s) that started before 2021-01-01T00:00:00Z; kept 2 run(s) for "
                    + "quarantined tests' history"), "\(pruned.stdout)")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.map { $0["tests"] as? Int } == [2, 1, 1])

        let bad = try await cli.run(["prune", "--older-than", "soon"])
        #expect(bad.status != 0 && bad.stderr.contains("--older-than: \"soon\" is not a duration or a date"))
    }
}
