import Foundation
import LedgerTestSupport
import Testing

/// A realistic race, recorded as a team records it: Swift Testing suites in several files of
/// Tests/Fixtures/ObservedSuite (`Race/`), where `RemoteConfigTests` turns the new pricing on for
/// part of its run and `QuoteTests/quotesTheFamilyRoom()` fails when it quotes meanwhile; decoys
/// touch the same configuration harmlessly. In the ObserverTests suite, which builds the fixture
/// one test at a time.
extension ObserverTests {
    static let raceProject = "Quotes"
    static let flaky = "ObservedTests.QuoteTests/quotesTheFamilyRoom()"
    static let racer = "ObservedTests.RemoteConfigTests/launchRefreshesFlags()"

    /// Thirty `record --retries 1` runs of the race suite in `mode` (`race` or `random`).
    func recordRaceSuite(_ cli: CLI, mode: String) async throws {
        for number in 1...30 {
            let output = try await cli.run(
                ["record", "--retries", "1", "--project", Self.raceProject, "--", "swift", "test"]
                    + (number > 1 ? ["--skip-build"] : [])
                    + [
                        "--package-path", Self.fixture, "--scratch-path", CLI.scratchPath(for: "ObservedSuite"),
                        "--filter", "QuoteTests|RemoteConfigTests|PricingTests|SettingsTests|CatalogueTests",
                    ],
                environment: ["FIXTURE_RACE": mode])
            #expect(output.status <= 1, "\(output.stderr.suffix(2_000))")
        }
    }

    func culprit(_ cli: CLI) async throws -> [String: Any] {
        try #require(
            try await cli.json(["report", "culprit", "--project", Self.raceProject, Self.flaky]) as? [String: Any])
    }

    @Test func thirtyRecordedRunsNameTheRacingTestAndItsStep() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await recordRaceSuite(cli, mode: "race")
        let culprit = try await culprit(cli)
        let failing = try #require(culprit["failingAttempts"] as? Int)
        #expect(failing >= 5 && failing < 30, "\(culprit)")
        let suspects = try #require(culprit["suspects"] as? [[String: Any]], "\(culprit)")
        let first = try #require(suspects.first, "\(culprit)")
        #expect(first["kind"] as? String == "overlapping-step", "\(suspects)")
        #expect(first["name"] as? String == Self.racer)
        #expect(first["step"] as? String == "Refresh at launch", "\(first)")
        // Whether the racer was still in its step or just past it when the victim ran is the real
        // runner's timing: either names the step.
        let evidence = first["evidence"] as? String ?? ""
        #expect(
            evidence.hasPrefix(
                "'Quote the family room' ran while \(Self.racer) was past 'Refresh at launch' and not yet ended")
                || evidence.hasPrefix("'Quote the family room' ran while \(Self.racer) was in 'Refresh at launch'"),
            "\(first)")
        // It failed only beside other tests: every retry, alone, passed.
        #expect((culprit["failsOnlyBeside"] as? [String])?.contains(Self.racer) == true, "\(culprit)")
        if let retry = suspects.first(where: { $0["kind"] as? String == "attempt" }) {
            #expect(
                (retry["evidence"] as? String)?.hasPrefix("passes when retried alone (\(failing) of \(failing))")
                    == true)
        }
        // Every attempt of the flaky test kept both its steps, first tries and retries alike.
        let steps = try await ConcurrentCreationTests.query(
            cli.database,
            """
            SELECT count(*), sum((SELECT count(*) FROM activity WHERE resultId = r.id) = 2) FROM result r
            JOIN test t ON t.id = r.testId WHERE t.key = '\(Self.flaky)'
            """)
        let figures = try #require(steps.first?.split(separator: "|").compactMap { Int($0) })
        #expect(figures.count == 2 && figures[0] == 30 + failing && figures[1] == figures[0], "\(steps)")

        // show draws a failing attempt's steps against the steps of the tests beside it.
        let failedRun = try #require(
            try await ConcurrentCreationTests.query(
                cli.database,
                """
                SELECT run.uuid FROM result r JOIN run ON run.id = r.runId JOIN test t ON t.id = r.testId
                WHERE t.key = '\(Self.flaky)' AND r.outcome = 'failed' LIMIT 1
                """
            ).first)
        let shown = try await cli.run(["show", Self.flaky, "--run", failedRun, "--attempt", "1"])
        #expect(shown.stdout.contains("Beside attempt 1 (times from its start;"), "\(shown.stdout)")
        #expect(shown.stdout.contains("    Quote the family room  +"), "\(shown.stdout)")
        #expect(shown.stdout.contains("  \(Self.racer)  "))
        #expect(shown.stdout.contains("    Refresh at launch  "), "\(shown.stdout)")

        // verify sees what the ledger saw: beside the tests it failed with, or alone with a warning.
        let beside = try await verifyReproducing(cli, alone: false)
        #expect(beside.stderr.contains("fails only beside other tests: it runs beside the"), "\(beside.stderr)")
        #expect(beside.report["verdict"] as? String == "reproduced", "\(beside.report)")
        #expect((beside.report["runsBeside"] as? [String])?.contains(Self.racer) == true, "\(beside.report)")
        let alone = try await verifyReproducing(cli, alone: true)
        #expect(alone.stderr.contains("warning: \(Self.flaky) fails only beside other tests, and runs alone"))
        #expect(alone.report["verdict"] as? String == "not-reproduced", "\(alone.report)")
        #expect(alone.report["runsBeside"] == nil)
    }

    /// `verify --reproduce` of the flaky test, at a rate that allows 30 runs beside (a failure is
    /// all but certain) or 6 alone.
    func verifyReproducing(_ cli: CLI, alone: Bool) async throws -> (stderr: String, report: [String: Any]) {
        let output = try await cli.run(
            ["verify", "--reproduce", "--project", Self.raceProject, Self.flaky, "--json-file", "verify.json"]
                + (alone ? ["--alone", "--rate", "0.5"] : ["--rate", "0.1"])
                + [
                    "--", "swift", "test", "--package-path", Self.fixture, "--scratch-path",
                    CLI.scratchPath(for: "ObservedSuite"),
                ],
            environment: ["FIXTURE_RACE": "race"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.directory.url.appending(path: "verify.json")))
                as? [String: Any], "\(output.stderr.suffix(2_000))")
        return (output.stderr, report)
    }

    @Test func thirtyRunsFailingAtRandomNameNoOtherTest() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await recordRaceSuite(cli, mode: "random")
        let culprit = try await culprit(cli)
        #expect((culprit["failingAttempts"] as? Int ?? 0) >= 3, "\(culprit)")
        let suspects = culprit["suspects"] as? [[String: Any]] ?? []
        let named = suspects.filter { ["overlapping-step", "overlapping-test"].contains($0["kind"] as? String) }
        #expect(named.isEmpty, "\(named)")
    }
}
