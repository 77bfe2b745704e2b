import Foundation
import LedgerTestSupport
import Testing

/// `record` and `report run` on generated JUnit histories: runs ingested outside git and CI (no
/// branch), and a base branch with a flaky test that failed its newest run. Every verdict is named
/// in `record`'s summary, the JSON and the Markdown.
@Suite struct ReportRunComparisonCommandTests {
    static let titles = [
        "new": "new", "failed-before": "failed before", "failing-on-base": "failing on base too",
        "known-flaky": "known flaky", "quarantined": "quarantined",
    ]

    /// Ingests the history's earlier runs (on `branch`), quarantines its test, then records the
    /// next run (on `next`) with `GITHUB_STEP_SUMMARY` set; returns `record`'s output and the summary.
    func recorded(_ cli: CLI, branch: String?, next: String?) async throws -> (stdout: String, summary: String) {
        var history = VerdictHistory(seed: 44)
        let onBranch = branch.map { ["--branch", $0] } ?? []
        for index in 0..<history.earlierRuns {
            let file = try cli.directory.write(
                "run\(index).xml", history.junit(run: index, timestamp: "2026-10-10T1\(index):00:00Z"))
            let ingested = try await cli.run(["ingest", "--project", "Shop"] + onBranch + [file.path])
            #expect(ingested.status == 0, "\(ingested.stderr)")
        }
        let added = try await cli.run(
            ["quarantine", "add", VerdictHistory.quarantined, "--reason", "flaky", "--project", "Shop"])
        #expect(added.status == 0, "\(added.stderr)")
        let results = try cli.directory.write(
            "out/next.xml", history.junit(run: history.earlierRuns, timestamp: "2026-10-11T10:00:00Z"))
        let summary = cli.directory.path("summary.md")
        let record = try await cli.run(
            ["record", "--project", "Shop"] + (next.map { ["--branch", $0] } ?? [])
                + ["--junit", results.path, "--", "sh", "-c", "exit 1"],
            environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(record.status == 1, "\(record.stderr)")
        return (record.stdout, (try? String(contentsOfFile: summary, encoding: .utf8)) ?? "")
    }

    /// The JSON's verdict of each failure, by test.
    func verdicts(_ json: [String: Any]) throws -> [String: String] {
        let failures = try #require(json["failures"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: failures.compactMap { failure in
                (failure["test"] as? String).map { ($0, failure["verdict"] as? String ?? "") }
            })
    }

    @Test func withoutBranchesEveryVerdictIsNamedAgainstTheRunsBefore() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (stdout, summary) = try await recorded(cli, branch: nil, next: nil)
        let comparison = "(no main runs: compared with the 8 runs before)"
        #expect(
            stdout.contains(
                "1 new, 1 failed before, 2 failing on base too, 1 known flaky, 1 quarantined \(comparison)"),
            "\(stdout)")
        for (test, verdict) in VerdictHistory().verdicts {
            let title = Self.titles[verdict] ?? verdict
            let lines = stdout.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix(title + " ") && $0.contains(" \(test) ") }, "\(test)")
            #expect(summary.contains("| **\(title)** | `\(test)` |"), "\(test): \(summary)")
        }
        #expect(stdout.contains("never failed in the 8 runs before"))
        #expect(stdout.contains("Fixed (failing in the run before, passing here): App.Cart/fixed"))
        #expect(summary.contains(comparison))

        let json = try #require(try await cli.json(["report", "run"]) as? [String: Any])
        #expect(try verdicts(json) == VerdictHistory().verdicts)
        let compared = try #require(json["comparedWith"] as? [String: Any])
        #expect(compared["branch"] is NSNull && compared["runs"] as? Int == 8, "\(compared)")
        #expect(json["base"] as? String == "main" && json["baseRun"] is String && json["branch"] == nil)
        let markdown = try await cli.run(["report", "run", "--format", "markdown"])
        #expect(markdown.stdout.hasPrefix("### TestLedger: 6 failure(s)") && markdown.stdout.contains(comparison))
        for (test, verdict) in VerdictHistory().verdicts {
            #expect(markdown.stdout.contains("| **\(Self.titles[verdict] ?? verdict)** | `\(test)` |"), "\(test)")
        }
    }

    @Test func aTestFlakyOnTheBaseIsKnownFlakyWithTheBasesFailureAsEvidence() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (stdout, summary) = try await recorded(cli, branch: "main", next: "feature")
        #expect(
            stdout.contains("1 new, 1 failed before, 2 failing on base too, 1 known flaky, 1 quarantined (base: main)"),
            "\(stdout)")
        #expect(summary.contains("| **known flaky** | `App.Cart/flaky` |"), "\(summary)")
        let json = try #require(try await cli.json(["report", "run", "--base", "main"]) as? [String: Any])
        #expect(try verdicts(json) == VerdictHistory().verdicts)
        let compared = try #require(json["comparedWith"] as? [String: Any])
        #expect(compared["branch"] as? String == "main" && compared["runs"] as? Int == 8, "\(compared)")
        let failures = try #require(json["failures"] as? [[String: Any]])
        let flaky = try #require(failures.first { $0["test"] as? String == "App.Cart/flaky" })
        #expect((flaky["evidence"] as? String)?.contains("; the newest main run (") == true, "\(flaky)")
        #expect((flaky["evidence"] as? String)?.contains(") failed it too") == true)
        let broken = try #require(failures.first { $0["test"] as? String == "App.Cart/broken" })
        #expect(broken["evidence"] as? String == "broken: failed the last 4 runs of main")
        let markdown = try await cli.run(["report", "run", "--format", "markdown", "--base", "main"])
        for (test, verdict) in VerdictHistory().verdicts {
            #expect(markdown.stdout.contains("| **\(Self.titles[verdict] ?? verdict)** | `\(test)` |"), "\(test)")
        }
    }
}
