import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// `testledger status`: one line per test, and an exit status a script can branch on.
@Suite struct StatusCommandTests {
    @Test func eachStandingHasItsExitStatus() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await JSONContractTests.history(cli)
        let expected: [(test: String, standing: String, status: Int32)] = [
            ("ShopTests.StableTests/test0", "healthy", 0), ("ShopTests.PassesonretryTests/test1", "flaky", 10),
            ("ShopTests.BrokenTests/test1", "broken", 11), ("ShopTests.FailsaquarterTests/test0", "quarantined", 12),
            ("ShopTests.Nope/test0", "unknown", 13),
        ]
        for (test, standing, status) in expected {
            let output = try await cli.run(["status", test, "--project", "Shop"])
            #expect(output.status == status, "\(test): \(output.stdout) \(output.stderr)")
            #expect(output.stdout.hasPrefix("\(test)  \(standing): "), "\(output.stdout)")
        }
        // Several tests exit with the one asking most attention: broken before flaky, and so on.
        let all = try await cli.run(["status"] + expected.map(\.test) + ["--project", "Shop", "--format", "json"])
        #expect(all.status == 11, "\(all.stderr)")
        let standings = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        #expect(standings.map { $0["standing"] as? String } == expected.map(\.standing))
        let broken = try #require(standings.first { $0["standing"] as? String == "broken" })
        let rate = try #require(broken["failureRate"] as? Double)
        #expect(rate > 0.5 && (broken["runs"] as? Int ?? 0) > 0, "\(broken)")
        #expect(standings[3]["quarantined"] as? String == "mute", "\(standings[3])")
        #expect(standings[4]["runs"] as? Int == 0 && standings[4]["failureRate"] == nil)
        #expect(standings[0]["reason"] as? String == "passed its 30 run(s)", "\(standings[0])")
        let flakyAndHealthy = try await cli.run([
            "status", "ShopTests.StableTests/test0", "ShopTests.PassesonretryTests/test1", "--project", "Shop",
        ])
        #expect(flakyAndHealthy.status == 10)
    }

    @Test func anEmptyLedgerKnowsNoTestAndAMistypedCommandIsNoStanding() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let unknown = try await cli.run(["status", "A/a"])
        #expect(unknown.status == 13 && unknown.stdout.contains("A/a  unknown: did not run in the window"))
        let none = try await cli.run(["status"])
        #expect(none.status == 64, "\(none.stderr)")
        let missing = try await cli.run(["status", "A/a", "--db", "postgres://nobody@127.0.0.1:9/none"])
        #expect(missing.status == 1, "\(missing.stderr)")
    }
}
