import Foundation
import LedgerTestSupport
import Testing

/// `testledger verify` on a test that fails with a chance set by `$FLAKE_PROBABILITY`, and on its
/// twin with the cause removed (Tests/Fixtures/RetriedSuite's `CacheRaceTests`), with the real
/// `swift test`.
@Suite(.serialized) struct VerifyFixTests {
    static let flaky = "RetriedTests.CacheRaceTests/readRacesTheFill()"
    static let twin = "RetriedTests.CacheRaceTests/readAwaitsTheFill()"

    /// The reports of a verification of several tests: its JSON array.
    func reports(_ output: CLI.Output) throws -> [String: [String: Any]] {
        // Standard output is the JSON alone: the tests' output goes to standard error.
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]],
            "\(output.stdout.suffix(2_000)) \(output.stderr.suffix(2_000))")
        return Dictionary(uniqueKeysWithValues: array.map { ($0["test"] as? String ?? "", $0) })
    }

    @Test func theFlakyTestIsStillFlakyAndItsQuarantinedTwinIsFixedAfterExactlyNRunsAndReleased() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        // Both in quarantine: only the one found fixed leaves it.
        for test in [Self.twin, Self.flaky] {
            let quarantined = try await cli.run(
                [
                    "quarantine", "add", test, "--reason", "flaky: reads the cache early", "--project", "Retried",
                    "--force",
                ])
            #expect(quarantined.status == 0, "\(quarantined.stderr)")
        }
        // p = 25 %: ⌈ln 0.05 / ln 0.75⌉ = 11 runs. Seed 3 loses the race on an early run.
        let output = try await VerifyCommandTests.verify(
            cli,
            [Self.flaky, Self.twin, "--rate", "0.25", "--release", "--revision", "1a2b3c4d5e6f", "--format", "json"],
            environment: ["FLAKE_PROBABILITY": "0.25", "FLAKE_SEED": "3"])
        #expect(output.status == 10, "still-flaky outranks fixed: \(output.stderr)")
        let reports = try reports(output)
        let flaky = try #require(reports[Self.flaky])
        #expect(flaky["verdict"] as? String == "still-flaky" && flaky["failed"] as? Int == 1, "\(flaky)")
        let failure = try #require(flaky["firstFailure"] as? [String: Any])
        #expect((failure["message"] as? String)?.contains("the cache was read before it was filled") == true)
        let twin = try #require(reports[Self.twin])
        #expect(twin["verdict"] as? String == "fixed" && twin["runsNeeded"] as? Int == 11, "\(twin)")
        #expect(twin["runs"] as? Int == 11 && twin["passed"] as? Int == 11 && twin["firstFailure"] is NSNull)
        // Each test's attempts in the verification run: the flaky one stopped at its failure.
        let flakyAttempts = try #require(try await cli.json(["show", Self.flaky]) as? [String: Any])["attempts"]
        let runs = try #require(flaky["runs"] as? Int)
        #expect(flakyAttempts as? [String] == Array(repeating: "passed", count: runs - 1) + ["failed"])

        #expect(
            output.stderr.contains(
                "testledger: \(Self.twin): released from quarantine: verified: 11 of 11 passed, "
                    + "p = 25 %, 95 %, revision 1a2b3c4"), "\(output.stderr.suffix(1_000))")
        let list = try #require(
            try await cli.json(["quarantine", "list", "--project", "Retried"]) as? [[String: Any]])
        #expect(list.map { $0["test"] as? String } == [Self.flaky], "the still-flaky test stays: \(list)")
        let log = try #require(try await cli.json(["quarantine", "log", "--project", "Retried"]) as? [[String: Any]])
        let release = try #require(log.last)
        #expect(release["action"] as? String == "remove" && release["test"] as? String == Self.twin, "\(log)")
        #expect(release["reason"] as? String == "verified: 11 of 11 passed, p = 25 %, 95 %, revision 1a2b3c4")
        let evidence = try #require(
            try JSONSerialization.jsonObject(with: Data((release["evidence"] as? String ?? "").utf8)) as? [String: Any])
        #expect(evidence["passed"] as? Int == 11 && evidence["revision"] as? String == "1a2b3c4d5e6f", "\(evidence)")
    }

    /// ⌈3 / p⌉ runs see a test failing at p with chance 1 − (1 − p)^⌈3 / p⌉ ≈ 95 %: at p = 50 %,
    /// 6 runs, 98.4 %. The trials' seeds are fixed, so the count is too.
    @Test func reproducingSeesTheFailureWithinThreeOverPRunsInNineteenOfTwentySeededTrials() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        var reproduced: [Int] = []
        for seed in 1...20 {
            let output = try await VerifyCommandTests.verify(
                cli, [Self.flaky, "--rate", "0.5", "--reproduce", "--format", "json"], markers: "markers-\(seed)",
                environment: ["FLAKE_PROBABILITY": "0.5", "FLAKE_SEED": "\(seed)"], skipBuild: seed > 1)
            let report = try VerifyCommandTests.json(output)
            #expect(report["runsNeeded"] as? Int == 6)
            if report["verdict"] as? String == "reproduced" {
                reproduced.append(try #require(report["runs"] as? Int))
                #expect(output.status == 0)
            } else {
                #expect(report["verdict"] as? String == "not-reproduced" && report["runs"] as? Int == 6)
                #expect(output.status == 10)
            }
        }
        #expect(reproduced.count >= 18, "reproduced in \(reproduced.count) of 20 trials")
        #expect(reproduced.allSatisfy { (1...6).contains($0) } && Set(reproduced).count > 1, "\(reproduced)")
    }
}
