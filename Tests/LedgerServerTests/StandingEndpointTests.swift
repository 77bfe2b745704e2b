import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// `status` and `report selection` by the API: the same composition the commands print.
@Suite(.serialized) struct StandingEndpointTests {
    /// The JSON `testledger COMMAND --format json` prints on the server's store.
    func printed(_ arguments: [String], _ server: LiveServer) async throws -> Any {
        let output = try await BuiltCLI.run(arguments + ["--format", "json"], database: server.databasePath)
        #expect(output.status == 0 || output.status >= 10, "\(output.stderr)")
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }

    @Test func aTestsStatusIsTheOneTheCommandSays() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await CulpritEndpointTests.seed(server)
            let history = CulpritEndpointTests.history
            let stable = try #require(history.tests.first { $0.planted == .stable }?.id)
            for test in [CulpritEndpointTests.test, stable, "Feed.Nope/never()"] {
                let answer = try await server.get("/api/v1/projects/Feed/tests/\(test)/status?runs=36")
                #expect(answer.status == 200, "\(answer.body)")
                let served = try #require(try answer.json() as? NSDictionary)
                let said = try #require(
                    try await printed(["status", test, "--project", "Feed", "--runs", "36"], server) as? [NSDictionary])
                #expect(said == [served], "\(test): the server answered \(served), the CLI printed \(said)")
            }
            let flaky = try #require(
                try await server.get("/api/v1/projects/Feed/tests/\(CulpritEndpointTests.test)/status").json()
                    as? [String: Any])
            #expect(flaky["standing"] as? String == "flaky", "\(flaky)")
            let unknown = try await server.get("/api/v1/projects/Feed/tests/Feed.Nope/never()/status").json()
            #expect((unknown as? [String: Any])?["standing"] as? String == "unknown")
        }
    }

    @Test func aFollowedFixIsSaidByTheAPIAndShownOnTheDashboard() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await CulpritEndpointTests.seed(server)
            let test = CulpritEndpointTests.test
            let database = try LedgerDatabase(path: server.databasePath)
            try database.recordFix(
                RecordedFix(
                    test: test, project: "Feed", revision: "d842132cafe", branch: "<script>fix</script>", at: 1,
                    evidence: .init(
                        verificationRun: "v", runs: 59, failureRateBefore: 0.25, remainingRateBelow: 0.0493,
                        confidence: 0.95), runsToRelease: 20))
            try database.close()
            let answer = try await server.get("/api/v1/projects/Feed/tests/\(test)/status")
            let standing = try #require(try answer.json() as? [String: Any], "\(answer.body)")
            #expect(standing["standing"] as? String == "fix-pending", "\(standing)")
            #expect((standing["fix"] as? [String: Any])?["revision"] as? String == "d842132cafe", "\(standing)")

            let page = try await server.get("/projects/Feed/tests/\(test)")
            #expect(page.status == 200)
            #expect(
                page.body.contains("<span class=\"badge\">fix-pending</span> Fix verified on <code>d842132c</code>"))
            #expect(page.body.contains("(&lt;script&gt;fix&lt;/script&gt;): 59 clean runs"), "\(page.body)")
            #expect(page.body.contains("less than 4.9 % of the time (it failed 25 % before)"), "\(page.body)")
            #expect(!page.body.contains("<script>fix"))
            let project = try await server.get("/projects/Feed")
            #expect(project.body.contains("<span class=\"fix\">fix-pending d842132c</span>"), "\(project.body)")
            let flaky = try #require(
                try await server.get("/api/v1/projects/Feed/flaky").json() as? [String: Any])
            let entry = (flaky["flaky"] as? [[String: Any]])?.first { $0["test"] as? String == test }
            #expect((entry?["fix"] as? [String: Any])?["state"] as? String == "fix-pending", "\(flaky)")
        }
    }

    @Test func whatSelectionMissedAndSavedIsTheReportsAnswer() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let write = try server.token("Shop", .write)
            let scripts = SelectedRuns(project: "Shop", cartSeconds: 4)
            let (vouching, selected) = (scripts.vouching, scripts.selected)
            #expect(try await server.post("/api/v1/events", token: write, vouching.ndjson).status == 201)
            #expect(try await server.post("/api/v1/events", token: write, selected.ndjson).status == 201)
            let answer = try await server.get("/api/v1/projects/Shop/selection")
            #expect(answer.status == 200, "\(answer.body)")
            let served = try #require(try answer.json() as? NSDictionary)
            let said = try await printed(["report", "selection", "--project", "Shop"], server) as? NSDictionary
            #expect(said == served, "the server answered \(served), the CLI printed \(String(describing: said))")
            let runs = try #require(served["runs"] as? [[String: Any]])
            #expect(runs.count == 1 && runs[0]["skippedTargets"] as? [String] == ["CartTests"], "\(runs)")
            #expect(runs[0]["savedSeconds"] as? Double == 4)
        }
    }
}
