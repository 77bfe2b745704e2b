import Foundation
import LedgerTestSupport
import Testing

extension RecordSelectTests {
    static func targetRows(_ cli: CLI, run: String) async throws -> [String] {
        try await ConcurrentCreationTests.query(
            cli.database,
            """
            SELECT target || ' ' || tests || ' ' || passed || ' ' || coalesce(vouchedBy, '-') || ' ' || coalesce(skipped, '-')
            FROM target_run JOIN run ON run.id = target_run.runId WHERE run.uuid = '\(run)' ORDER BY target
            """)
    }

    /// A plain `record` of main, no `--select`, stores the targets' hashes: the next branch's
    /// `record --select` leaves out what it did not change, and `report selection` does not count
    /// the full run as one that selected. A run of only some tests vouches for nothing.
    @Test func aFullRecordOfMainVouchesForTheNextBranch() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let repo = try await Self.repository(cli)
        let partial = try await Self.record(cli, ["--branch", "main"], arguments: ["--skip", "PaymentsTests"])
        #expect(partial.status == 0, "\(partial.stderr.suffix(3_000))")
        #expect(try await Self.targetRows(cli, run: try Self.runID(partial)).isEmpty, "a --skip runs only some tests")

        let full = try await Self.record(cli, ["--branch", "main", "--revision", "1a2b3c4d"])
        #expect(full.status == 0, "\(full.stderr.suffix(3_000))")
        #expect(!full.stderr.contains("select:"), "a full run says nothing of selection: \(full.stderr)")
        let vouching = try Self.runID(full)
        #expect(try await Self.targetRows(cli, run: vouching) == ["CartTests 3 3 - -", "PaymentsTests 3 3 - -"])
        let selection = try #require(try await cli.json(["report", "selection"]) as? [String: Any])
        #expect((selection["runs"] as? [Any])?.isEmpty == true, "\(selection)")

        try await Self.git(repo, "checkout", "-q", "-b", "feature")
        try Self.append("// Rounds before charging.", to: "Sources/Payments/Payments.swift", in: repo)
        try await Self.commit(repo, "payments")
        let selected = try await Self.record(cli, ["--select", "--branch", "feature"])
        #expect(selected.status == 0, "\(selected.stderr.suffix(3_000))")
        #expect(
            selected.stderr.contains("select: 1 of 2 test targets run; CartTests not affected"), "\(selected.stderr)")
        #expect(
            try await Self.targetRows(cli, run: try Self.runID(selected)) == [
                "CartTests 3 0 \(vouching) 1", "PaymentsTests 3 3 - -",
            ])
    }
}
