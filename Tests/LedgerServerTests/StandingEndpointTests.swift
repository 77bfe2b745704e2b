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
