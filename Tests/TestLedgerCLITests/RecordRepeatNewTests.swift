import Foundation
import LedgerTestSupport
import Testing

extension RecordRetryTests {
    /// `record --repeat-new` on Tests/Fixtures/RetriedSuite: a main run without its `Repeated…` tests
    /// makes them new on a feature branch; one fails its third run, the other always passes. Nested,
    /// so that it shares the fixture's build folder with the retries one test at a time.
    @Suite struct RepeatNew {
        static let flakyNew = "RetriedTests.RepeatedXCTests/testFailsOnItsThirdRun"
        static let stableNew = "RetriedTests.RepeatedSwiftTests/stable()"
        static let known = ["RetriedTests.RetriedXCTests/testPasses", "RetriedTests.RetriedSwiftTests/passes()"]

        /// A main run of every test but the new ones, in `cli`'s ledger.
        func recordMain(_ cli: CLI) async throws {
            let output = try await RecordRetryTests().record(
                cli, ["--branch", "main", "--retries", "1"] + ["--revision", "aaaa"],
                skipping: "RetriedTests.Repeated")
            #expect(output.status == 0, "\(output.stdout.suffix(2_000))\(output.stderr.suffix(2_000))")
        }

        func attempts(_ cli: CLI, _ test: String) async throws -> [String] {
            try await RecordRetryTests().attempts(cli, test)
        }

        @Test func aNewTestThatFailsOneRunFailsTheJobAndAStableOneIsProven() async throws {
            let cli = try CLI()
            defer { cli.directory.remove() }
            try await recordMain(cli)
            let output = try await RecordRetryTests().record(
                cli, ["--branch", "feature", "--revision", "bbbb", "--repeat-new", "5"],
                environment: ["RETRIED_THIRD_RUN_FAILS": "1"])
            #expect(output.status == 1, "\(output.stdout.suffix(3_000))\(output.stderr.suffix(2_000))")
            #expect(
                output.stdout.contains(
                    "testledger: flaky new test: \(Self.flakyNew) failed 1 of 6 runs: not ready to merge"),
                "\(output.stdout.suffix(3_000))")
            #expect(output.stdout.contains("testledger: new tests proven (passed 6 of 6 runs): \(Self.stableNew)"))
            await #expect(
                try attempts(cli, Self.flakyNew) == ["passed", "passed", "failed", "passed", "passed", "passed"])
            await #expect(try attempts(cli, Self.stableNew) == Array(repeating: "passed", count: 6))
            for test in Self.known {
                await #expect(try attempts(cli, test) == ["passed"], "\(test) is known to main: not repeated")
            }
            let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
            #expect(runs.first?["status"] as? String == "failed", "the job failed, though every final attempt passed")
        }

        @Test func withoutAnEarlierRunNothingIsRepeatedAndBeyondTheBudgetNewTestsAreUnproven() async throws {
            let cli = try CLI()
            defer { cli.directory.remove() }
            // The first run of a ledger has nothing to tell new tests by.
            let first = try await RecordRetryTests().record(
                cli, ["--branch", "main", "--repeat-new", "2", "--retries", "1"], skipping: "RetriedTests.Repeated")
            #expect(first.status == 0, "\(first.stdout.suffix(3_000))")
            #expect(
                first.stdout.contains(
                    "testledger: --repeat-new: nothing was repeated: no earlier run of main or of this configuration"),
                "\(first.stdout.suffix(3_000))")
            await #expect(try attempts(cli, Self.known[0]) == ["passed"])

            try cli.directory.write(".testledger.yml", "repeatNew: 3\nrepeatNewBudget: 0s\n")
            let output = try await RecordRetryTests().record(cli, ["--branch", "feature"])
            #expect(output.status == 0, "unproven is not failed: \(output.stdout.suffix(3_000))")
            #expect(
                output.stdout.contains(
                    "testledger: new tests unproven (beyond the 0 s budget): \(Self.stableNew), \(Self.flakyNew)"),
                "\(output.stdout.suffix(3_000))")
            await #expect(try attempts(cli, Self.stableNew) == ["passed"])
        }
    }
}
