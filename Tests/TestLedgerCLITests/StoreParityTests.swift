import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// The same history, ingested into an SQLite file and into PostgreSQL through the real CLI, gives
/// the same reports, byte for byte.
@Suite(.enabled(if: TestPostgres.available, "needs TESTLEDGER_TEST_DATABASE_URL (a PostgreSQL server)"))
struct StoreParityTests {
    @Test func everyReportIsTheSameOnBothStores() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let postgres = try #require(TestPostgres.freshURL())
        defer { TestPostgres.drop(postgres) }
        let onPostgres = ["TESTLEDGER_DATABASE_URL": postgres]

        let paths = try GeneratedHistory.files().enumerated().map { index, text in
            try cli.directory.write(String(format: "run%02d.jsonl", index), text).path
        }
        for environment in [[:], onPostgres] {
            let ingested = try await cli.run(["ingest"] + paths, environment: environment)
            #expect(ingested.status == 0, "\(ingested.stderr)")
            let again = try await cli.run(["ingest", paths[5]], environment: environment)
            #expect(again.stdout.contains("0 result(s) stored"), "re-sent: \(again.stdout)")
            let added = try await cli.run(
                [
                    "quarantine", "add", "ShopTests.FailsaquarterTests/test0", "--reason", "flaky on CI",
                    "--by", "ci", "--project", "Shop", "--until", "2099-01-01",
                ], environment: environment)
            #expect(added.status == 0, "\(added.stderr)")
        }

        let newest = "00000000-0000-4000-8000-000000000035"
        let commands: [[String]] = [
            ["runs", "--limit", "100"], ["runs", "--project", "Admin"],
            ["report", "pyramid"], ["report", "pyramid", "--since", "2026-01-01", "--project", "Shop"],
            ["report", "pyramid", "--run", "00000000-0000-4000-8000-000000000008"],
            ["report", "flaky", "--project", "Shop"], ["report", "flaky", "--runs", "10", "--project", "Shop"],
            ["report", "slow", "--runs", "8", "--project", "Shop"], ["report", "failures", "--project", "Shop"],
            ["report", "run", newest], ["report", "run", "00000000-0000-4000-8000-000000000034"],
            ["show", "ShopTests.PassesonretryTests/test1"], ["show", "ShopTests.BrokenTests/test1", "--run", newest],
            ["show", "ShopTests.StableTests/test3", "--run", "00000000-0000-4000-8000-000000000034"],
            ["quarantine", "list", "--project", "Shop"], ["quarantine", "log", "--project", "Shop"],
            ["report", "culprit", "ShopTests.PassesonretryTests/test1", "--project", "Shop"],
            [
                "report", "culprit", "ShopTests.BrokenTests/test1", "--project", "Shop", "--configuration",
                "iPad / iOS 18",
            ],
        ]
        for command in commands {
            var sqlite = try await cli.run(command + ["--format", "json"])
            var postgresql = try await cli.run(command + ["--format", "json"], environment: onPostgres)
            if command[0] == "quarantine" {
                // `quarantine add` stamps the moment it ran, a second apart on the two stores.
                sqlite.stdout = Self.withoutTimesOfToday(sqlite.stdout)
                postgresql.stdout = Self.withoutTimesOfToday(postgresql.stdout)
            }
            #expect(sqlite.status == 0 && postgresql.status == 0, "\(command): \(sqlite.stderr) \(postgresql.stderr)")
            #expect(sqlite.stdout.count > 40, "\(command) printed \(sqlite.stdout)")
            #expect(sqlite.stdout == postgresql.stdout, "\(command) differs")
            if sqlite.stdout != postgresql.stdout {
                try cli.directory.write("sqlite.json", sqlite.stdout)
                try cli.directory.write("postgresql.json", postgresql.stdout)
                let diff = try await ChildProcess.run(
                    URL(fileURLWithPath: "/usr/bin/diff"),
                    [cli.directory.path("sqlite.json"), cli.directory.path("postgresql.json")])
                Issue.record("\(command):\n\(diff.stdout.prefix(3_000))")
            }
        }

        // The history is rich enough for the comparison to mean something.
        let flaky = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    try await cli.run(
                        ["report", "flaky", "--project", "Shop", "--format", "json"], environment: onPostgres
                    )
                    .stdout.utf8)) as? [String: Any])
        #expect((flaky["flaky"] as? [Any])?.count ?? 0 >= 4, "\(flaky.keys)")
        #expect((flaky["broken"] as? [Any])?.count ?? 0 >= 4)
        #expect((flaky["predicates"] as? [Any])?.isEmpty == false)
        let shown = try await cli.run(
            ["show", "ShopTests.BrokenTests/test1", "--format", "json"], environment: onPostgres)
        for expected in ["Tap “Delete”", "AlertVerifier", "spinner gone", "Screenshot", "XCTAssertEqual failed"] {
            #expect(shown.stdout.contains(expected), "show lacks \(expected)")
        }
    }

    /// The JSON without the lines stamped today or yesterday.
    static func withoutTimesOfToday(_ json: String) -> String {
        // Yesterday's too: a run across midnight stamps one store on each day.
        let now = Date().timeIntervalSince1970
        let days = [now, now - 86_400].map { String(iso8601($0).prefix(10)) }
        return json.split(separator: "\n").filter { line in !days.contains { line.contains($0) } }.joined(
            separator: "\n")
    }
}
