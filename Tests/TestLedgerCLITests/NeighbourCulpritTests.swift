import Foundation
import LedgerTestSupport
import Testing

/// The real Swift Testing runner, side by side in one process, on Tests/Fixtures/NeighbourSuite:
/// `keepsWhatWasAdded` fails when `clearsCart` empties the shared cart while it waits.
@Suite(.serialized) struct NeighbourCulpritTests {
    static let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/NeighbourSuite").path
    static let victim = "NeighbourTests.CartTests/keepsWhatWasAdded()"
    static let neighbour = "NeighbourTests.CartTests/clearsCart()"

    func swiftTest(skipBuild: Bool) -> [String] {
        ["swift", "test"] + (skipBuild ? ["--skip-build"] : [])
            + ["--package-path", Self.fixture, "--scratch-path", CLI.scratchPath(for: "NeighbourSuite")]
    }

    @Test func thirtyRecordedRunsNameTheNeighbourAndVerifyIsolateConfirmsIt() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        for number in 1...30 {
            let output = try await cli.run(["record", "--project", "Cart", "--"] + swiftTest(skipBuild: number > 1))
            #expect(output.status <= 1, "\(output.stderr.suffix(2_000))")
        }
        let culprit = try #require(
            try await cli.json(["report", "culprit", "--project", "Cart", Self.victim]) as? [String: Any])
        let failing = try #require(culprit["failingAttempts"] as? Int)
        #expect(failing >= 5 && failing < 30, "two runs in three fail: \(failing)")
        let suspect = try #require((culprit["suspects"] as? [[String: Any]])?.first, "\(culprit)")
        #expect(suspect["kind"] as? String == "overlapping-test")
        #expect(suspect["name"] as? String == Self.neighbour)
        // Timestamps are the runner's, taken a moment apart from the clearing itself: an edge case
        // may fall either side.
        #expect((suspect["evidence"] as? String)?.hasPrefix("ended while it ran in ") == true)
        let beside = try #require((suspect["failing"] as? [String: Any])?["count"] as? Int)
        #expect(Double(beside) >= 0.8 * Double(failing), "\(suspect)")

        // record stamps the Swift Testing process: one per run, shared by its four tests.
        let processes = try await ConcurrentCreationTests.query(
            cli.database,
            "SELECT COUNT(DISTINCT process), COUNT(*), COUNT(load), MAX(process) FROM result")
        let figures = try #require(processes.first?.split(separator: "|").map(String.init))
        #expect(figures[0] == "30" && figures[1] == "120", "\(figures)")
        #expect(figures[2] == "120", "every attempt has the load average of its time")
        #expect((Int(figures[3]) ?? 0) < 0, "record's own ids, never a real process's")

        let isolated = try await cli.run(
            [
                "verify", "--project", "Cart", "--isolate", Self.victim, "--runs", "16", "--json-file",
                "isolation.json", "--",
            ]
                + swiftTest(skipBuild: true))
        #expect(isolated.status == 0, "\(isolated.stderr.suffix(2_000))")
        let report = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: cli.directory.url.appending(path: "isolation.json")))
                as? [String: Any])
        #expect(isolated.stdout.contains("needs-neighbour: fails only beside"), "\(isolated.stdout.suffix(1_000))")
        #expect(report["verdict"] as? String == "needs-neighbour", "\(report)")
        #expect(report["neighbour"] as? String == Self.neighbour)
        #expect(report["arrangement"] as? String == "beside")
        #expect((report["alone"] as? [String: Any])?["failed"] as? Int == 0)
        #expect((report["alone"] as? [String: Any])?["runs"] as? Int == 16)
        #expect(((report["beside"] as? [String: Any])?["failed"] as? Int ?? 0) >= 4)
        // Both halves are attempts of one verification run: 16 alone, then 16 beside.
        let attempts = try await ConcurrentCreationTests.query(
            cli.database,
            """
            SELECT test.key, COUNT(*), MIN(result.attempt), MAX(result.attempt) FROM result
            JOIN run ON run.id = result.runId JOIN test ON test.id = result.testId
            WHERE run.kind = 'verification' GROUP BY test.key ORDER BY test.key
            """)
        #expect(attempts == ["\(Self.neighbour)|16|17|32", "\(Self.victim)|32|1|32"], "\(attempts)")
    }

    @Test func isolatingWantsOneTestASwiftTestCommandAndANeighbour() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let bacon = try await cli.run(["verify", "--isolate", Self.victim, "--", "bacon", "spec/cart_spec.rb"])
        #expect(bacon.status == 64)
        #expect(bacon.stderr.contains("verify --isolate runs swift test"), "\(bacon.stderr)")
        let two = try await cli.run(
            ["verify", "--isolate", Self.victim, Self.neighbour, "--"] + swiftTest(skipBuild: true))
        #expect(two.stderr.contains("--isolate takes one test"), "\(two.stderr)")
        let stray = try await cli.run(["verify", "--runs", "5", Self.victim, "--"] + swiftTest(skipBuild: true))
        #expect(stray.stderr.contains("--beside and --runs go with --isolate"), "\(stray.stderr)")
        let unknown = try await cli.run(
            ["verify", "--project", "Cart", "--isolate", Self.victim, "--"] + swiftTest(skipBuild: true))
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("name one with --beside TEST"), "\(unknown.stderr)")
    }
}
