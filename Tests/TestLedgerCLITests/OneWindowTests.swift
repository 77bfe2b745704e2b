import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore
import LedgerTestSupport
import Testing

/// Every door reads a test's culprit over the one configured window: the neighbour `verify
/// --isolate` runs a test with is the one `report culprit` names, on a history where a wider
/// window names others.
struct OneWindowTests {
    static let history = PlantedParallel(seed: 3, runs: 40, variants: 2)
    static let neighbourKinds: Set<String> = ["overlapping-step", "overlapping-test", "preceding-test", "co-failure"]

    /// The first suspect `report culprit` names that is another test.
    func namedNeighbour(_ cli: CLI, _ test: String, _ extra: [String] = []) async throws -> String? {
        let report = try #require(try await cli.json(["report", "culprit", test] + extra) as? [String: Any])
        let suspects = report["suspects"] as? [[String: Any]] ?? []
        return suspects.first { Self.neighbourKinds.contains($0["kind"] as? String ?? "") }?["name"] as? String
    }

    @Test func verifyIsolateAndReportCulpritAgreeOnTheNeighbour() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write(".testledger.yml", "flaky:\n  window: 15\n")
        let paths = try Self.history.files().enumerated().map { index, text in
            try cli.directory.write(String(format: "run%02d.jsonl", index), text).path
        }
        let ingested = try await cli.run(["ingest"] + paths)
        #expect(ingested.status == 0, "\(ingested.stderr)")

        var config = ProjectConfiguration()
        config.window = 15
        let session = VerificationSession(
            command: ["swift", "test"], config: config, metadata: RunMetadata(project: "Cart"),
            ledgerFile: cli.database, database: try LedgerDatabase(path: cli.database))
        let suspected = Self.history.tests.filter { [.overlappingTest, .precedingTest, .coFailure].contains($0.cause) }
        #expect(suspected.count >= 4)
        var widerWindowDiffers = false
        for test in suspected {
            let named = try await namedNeighbour(cli, test.id)
            let isolated = try? session.isolationNeighbour(of: test.id, beside: nil).test
            #expect(isolated == named, "\(test.id): verify --isolate runs it with \(isolated ?? "none")")
            if try await namedNeighbour(cli, test.id, ["--runs", "40"]) != named { widerWindowDiffers = true }
        }
        #expect(widerWindowDiffers, "over 40 runs some neighbour differs: the check tells the windows apart")
    }
}
