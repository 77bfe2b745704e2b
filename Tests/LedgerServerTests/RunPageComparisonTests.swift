import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// A run's page on generated histories: runs without a branch, and a base branch with a flaky
/// test that failed its newest run. Every verdict is shown by name, as `report run` gives it.
@Suite struct RunPageComparisonTests {
    /// The history's runs, each on `branch` but the last (on `next`); returns the last one's id.
    static func seed(_ server: LiveServer, branch: String?, next: String?) async throws -> String {
        let write = try server.token("Shop", .write)
        var history = VerdictHistory(seed: 31)
        var last = ""
        for index in 0...history.earlierRuns {
            let script = history.script(
                run: index, project: "Shop", branch: index == history.earlierRuns ? next : branch,
                at: 1_790_000_000 + Double(index) * 3_600)
            #expect(try await server.post("/api/v1/events", token: write, script.ndjson).status == 201)
            last = script.run
        }
        try server.database.quarantine([
            QuarantinedTest(
                project: "Shop", test: VerdictHistory.quarantined, mode: .mute, reason: "flaky", by: "ana", since: 0)
        ])
        return last
    }

    /// The verdict badge of each row of the failures table, by test.
    static func verdicts(_ page: String) throws -> [String: String] {
        let failures = try #require(DashboardTests.element("table class=\"failures\"", in: page))
        var verdicts: [String: String] = [:]
        for row in failures.components(separatedBy: "<tr>").dropFirst(2) {
            guard let badge = row.range(of: "</span>"), let open = row[..<badge.lowerBound].lastIndex(of: ">"),
                let link = row.range(of: "\">App."), let end = row[link.upperBound...].range(of: "</a>")
            else { continue }
            verdicts["App." + row[link.upperBound..<end.lowerBound]] = String(
                row[row.index(after: open)..<badge.lowerBound])
        }
        return verdicts
    }

    static let titles = [
        "new": "new", "failed-before": "failed before", "failing-on-base": "failing on base too",
        "known-flaky": "known flaky", "quarantined": "quarantined",
    ]

    @Test func withoutBranchesTheRunPageSaysItComparedTheRunsBefore() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let run = try await Self.seed(server, branch: nil, next: nil)
            let page = try await server.get("/projects/Shop/runs/\(run)")
            #expect(page.status == 200, "\(page.body)")
            #expect(
                page.body.contains(
                    "6 failure(s) in ")
                    && page.body.contains(
                        "1 new, 1 failed before, 2 failing on base too, 1 known flaky, 1 quarantined "
                            + "(no main runs: compared with the 8 runs before)</h2>"),
                "\(page.body)")
            let expected = VerdictHistory().verdicts.mapValues { Self.titles[$0] ?? $0 }
            #expect(try Self.verdicts(page.body) == expected)
            #expect(page.body.contains("broken: failed the last 4 runs<"))
            #expect(page.body.contains("never failed in the 8 runs before"))
            #expect(page.body.contains("Fixed (failing in the run before, passing here)"))
        }
    }

    @Test func aTestFlakyOnTheBaseIsKnownFlakyOnTheRunPage() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let run = try await Self.seed(server, branch: "main", next: "feature")
            let page = try await server.get("/projects/Shop/runs/\(run)")
            #expect(
                page.body.contains(
                    "1 new, 1 failed before, 2 failing on base too, 1 known flaky, 1 quarantined "
                        + "(base: main)</h2>"), "\(page.body)")
            let expected = VerdictHistory().verdicts.mapValues { Self.titles[$0] ?? $0 }
            #expect(try Self.verdicts(page.body) == expected)
            #expect(page.body.contains("; the newest main run (00000000) failed it too"))
            #expect(page.body.contains("broken: failed the last 4 runs of main"))
            #expect(page.body.contains("Fixed (failing on main, passing here)"))
        }
    }
}
