import Foundation
import LedgerTestSupport
import Testing

@Suite struct ReportSlowCommandTests {
    /// `slow` takes 1 s for three days, then about 1.6 s; day 4 it fails after 9 s, and day 5
    /// every test fails after 50 s (noise).
    func junit(_ cli: CLI, day: Int) throws -> URL {
        let noise = day == 5
        func test(_ name: String, _ seconds: Double, failing: Bool = false) -> String {
            #"<testcase classname="App.Cart" name="\#(name)" time="\#(noise ? 50 : seconds)">"#
                + (failing || noise ? #"<failure message="boom"/>"# : "") + "</testcase>"
        }
        let slow = day < 3 ? 1.0 : day == 7 ? 1.7 : 1.6
        let cases =
            [test("slow", day == 4 ? 9 : slow, failing: day == 4), test("steady", 0.5)]
            + (0..<4).map { test("filler\($0)", 0.01) }
        return try cli.directory.write(
            "day\(day).xml",
            #"<testsuite name="s" timestamp="2026-10-1\#(day)T10:00:00Z">"# + cases.joined() + "</testsuite>")
    }

    @Test func aSlowerMedianIsFoundWithoutFailedAttemptsOrNoise() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        for day in 0..<8 {
            #expect(try await cli.run(["ingest", "--project", "Shop", try junit(cli, day: day).path]).status == 0)
        }
        let report = try #require(try await cli.json(["report", "slow", "--runs", "5"]) as? [String: Any])
        #expect(report["runs"] as? Int == 4 && report["previousRuns"] as? Int == 3, "\(report)")
        let slowdowns = try #require(report["slowdowns"] as? [[String: Any]])
        #expect(slowdowns.map { $0["test"] as? String } == ["App.Cart/slow"], "\(slowdowns)")
        #expect(slowdowns.first?["previousP50"] as? Double == 1.0 && slowdowns.first?["p50"] as? Double == 1.6)
        let slowest = try #require(report["slowest"] as? [[String: Any]])
        #expect(slowest.first?["test"] as? String == "App.Cart/slow" && slowest.first?["max"] as? Double == 1.7)

        let strict = try await cli.run(["report", "slow", "--runs", "5", "--growth", "70%", "--fail-on-slower"])
        #expect(strict.status == 0 && strict.stdout.contains("Slower: 0 test(s)"), "\(strict.stdout)")
        let gate = try await cli.run(["report", "slow", "--runs", "5", "--fail-on-slower"])
        #expect(gate.status == 1 && gate.stdout.contains("+600ms") && gate.stdout.contains("+60%"), "\(gate.stdout)")
        let bad = try await cli.run(["report", "slow", "--growth", "fast"])
        #expect(bad.status != 0 && bad.stderr.contains("--growth takes a share"))
    }
}
