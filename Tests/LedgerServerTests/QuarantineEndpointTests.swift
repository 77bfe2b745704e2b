import Foundation
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct QuarantineEndpointTests {
    let path = "/api/v1/projects/Shop/quarantine"
    let test = "App.CartTests%2FtestTax"

    func put(_ server: LiveServer, _ body: String, token: String?, test: String? = nil) async throws
        -> LiveServer.Answer
    {
        try await server.send(.PUT, path + "/" + (test ?? self.test), token: token, body: Array(body.utf8))
    }

    @Test func onlyAManageTokenOfTheProjectChangesTheQuarantine() async throws {
        try await LiveServer.with { server in
            let body = #"{"mode": "mute", "reason": "flaky on CI"}"#
            #expect(try await put(server, body, token: nil).status == 401)
            for scope in [StoredToken.Scope.write, .read] {
                let refused = try await put(server, body, token: try server.token("Shop", scope))
                #expect(refused.status == 403, "a \(scope) token")
                #expect(refused.body.contains("manage token"))
            }
            #expect(try await put(server, body, token: try server.token("Bank", .manage)).status == 403)
            let deleted = try await server.send(.DELETE, path + "/" + test, token: try server.token("Shop", .write))
            #expect(deleted.status == 403)
            #expect(try server.database.quarantineLog(project: "Shop").isEmpty, "nothing changed")
        }
    }

    @Test func putListDeleteAndTheTrail() async throws {
        try await LiveServer.with { server in
            let manage = try server.token("Shop", .manage)
            let added = try await put(
                server, #"{"mode": "skip", "reason": "hangs", "until": "2099-01-01T00:00:00Z", "by": "ana"}"#,
                token: manage)
            #expect(added.status == 201, "\(added.body)")
            let again = try await put(server, #"{"mode": "mute", "reason": "flaky"}"#, token: manage)
            #expect(again.status == 200 && again.body.contains(#""action" : "change""#), "\(again.body)")

            // A CI job's write token reads the list it must apply.
            let listed = try await server.get(path, token: try server.token("Shop", .write))
            #expect(listed.status == 200)
            let entries = try #require(try listed.json() as? [[String: Any]])
            #expect(entries.map { $0["test"] as? String } == ["App.CartTests/testTax"])
            #expect(entries.first?["mode"] as? String == "mute")

            let bad = try await put(server, #"{"mode": "hide", "reason": "x"}"#, token: manage)
            #expect(bad.status == 400 && bad.body.contains("request body: expected"), "\(bad.body)")
            let past = try await put(
                server, #"{"mode": "mute", "reason": "x", "until": "2001-01-01T00:00:00Z"}"#, token: manage)
            #expect(past.status == 400)

            let removed = try await server.send(.DELETE, path + "/" + test + "?reason=fixed", token: manage)
            #expect(removed.status == 200, "\(removed.body)")
            let missing = try await server.send(.DELETE, path + "/" + test, token: manage)
            #expect(missing.status == 404)
            let trail = try #require(
                try await server.get("/api/v1/projects/Shop/quarantine-log", token: manage).json() as? [[String: Any]])
            #expect(trail.map { $0["action"] as? String } == ["add", "change", "remove"])
            #expect(trail.first?["by"] as? String == "ana" && trail.last?["reason"] as? String == "fixed")
        }
    }

    @Test func uploadsApplyTheAutomaticPolicy() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.quarantine.mutesFlakyTests = true
        configuration.quarantine.afterRuns = 4
        try await LiveServer.with(configuration) { server in
            let write = try server.token("Shop", .write)
            for run in 0..<6 {
                var script = RunScript(project: "Shop", at: 1_700_000_000 + Double(run) * 86_400).start()
                script = run % 2 == 0 ? script.fail("Cart/flips") : script.pass("Cart/flips")
                let sent = try await server.post("/api/v1/events", token: write, script.pass("Cart/adds").end().ndjson)
                #expect(sent.status == 201, "\(sent.body)")
                let muted = try server.database.quarantined(project: "Shop", at: 1_800_000_000)
                #expect(muted.isEmpty == (run < 3), "muted once 4 runs are judged, after run \(run)")
            }
            let entries = try #require(try await server.get(path, token: write).json() as? [[String: Any]])
            #expect(entries.map { $0["test"] as? String } == ["Cart/flips"])
            #expect(entries.first?["automatic"] as? Bool == true && entries.first?["by"] as? String == "testledger")
        }
    }
}
