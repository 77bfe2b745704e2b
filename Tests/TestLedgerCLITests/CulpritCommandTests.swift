import Foundation
import LedgerTestSupport
import Testing

/// `testledger report culprit` on a planted history ingested through the CLI.
struct CulpritCommandTests {
    static let history = PlantedCulprits(seed: 9, runs: 30, variants: 1)

    func ingested() async throws -> CLI {
        let cli = try CLI()
        let paths = try Self.history.files().enumerated().map { index, text in
            try cli.directory.write(String(format: "run%02d.jsonl", index), text).path
        }
        let ingested = try await cli.run(["ingest"] + paths)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        return cli
    }

    @Test func jsonKeepsItsContract() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        let test = try #require(Self.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let report = try #require(try await cli.json(["report", "culprit", test]) as? [String: Any])
        #expect(
            Set(report.keys).isSuperset(of: [
                "test", "configuration", "failingAttempts", "passingAttempts", "verdict", "where", "suspects",
            ]))
        #expect(report["test"] as? String == test && report["configuration"] as? String == "*")
        #expect(report["verdict"] as? String == "suspects")
        let place = try #require(report["where"] as? [String: Any])
        #expect(Set(place.keys).isSuperset(of: ["message", "file", "line", "activity"]))
        #expect(place["activity"] as? String == "Open the feed › Show the feed")
        let top = try #require((report["suspects"] as? [[String: Any]])?.first)
        #expect(Set(top.keys).isSuperset(of: ["kind", "name", "evidence", "score", "failing", "passing"]))
        #expect(top["kind"] as? String == "predicate" && top["name"] as? String == "spinner hidden")
        let failing = try #require(top["failing"] as? [String: Int])
        #expect(failing["count"] ?? 0 >= 5 && failing["of"] == report["failingAttempts"] as? Int)
    }

    @Test func tableAndMarkdownSayTheVerdict() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        let test = try #require(Self.history.tests.first { $0.planted == .cause(.capturedValue) }?.id)
        let table = try await cli.run(["report", "culprit", test])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("Fails at: Tests/FeedTests.swift:42 in `Open the feed › Show the feed`"))
        let top = table.stdout.split(separator: "\n").first { $0.hasPrefix("capture ") }
        #expect(top?.contains(#"AlertVerifier.title = "Network error""#) == true, "\(table.stdout)")
        let rare = try #require(Self.history.tests.first { $0.planted == .twoFailures }?.id)
        let tooFew = try await cli.run(["report", "culprit", rare, "--format", "markdown"])
        #expect(tooFew.stdout.contains("Too few failures to tell: 2 failing attempt(s); a verdict needs 5."))
        let missing = try await cli.run(["report", "culprit", "Nope/test"])
        #expect(missing.status != 0 && missing.stderr.contains("Nope/test"), "\(missing.stderr)")
    }
}
