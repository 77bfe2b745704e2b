import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// A fix `verify` proved reaches the server over the API, with a manage token, and the server's
/// uploads follow it onto the default branch.
@Suite struct FixEndpointTests {
    static let test = "A/total"
    static let fix = #"""
        {"test": "A/total", "revision": "r2", "branch": "fix-total", "runsToRelease": 2,
         "evidence": {"verificationRun": "v1", "runs": 11, "failureRateBefore": 0.25,
                      "remainingRateBelow": 0.24, "confidence": 0.95}}
        """#

    @Test func aManageTokenSendsAFixThatUploadsOnItsRevisionLand() async throws {
        var configuration = ServerConfiguration(port: 0, publicRead: false)
        configuration.fixLanding = FixLanding(branch: "main")
        try await LiveServer.with(configuration) { server in
            let (write, read, manage) = (
                try server.token("Shop", .write), try server.token("Shop", .read), try server.token("Shop", .manage)
            )
            let first = RunScript(project: "Shop", revision: "r1", at: 1_000).start(branch: "main").pass(Self.test)
            #expect(try await server.post("/api/v1/events", token: write, first.end().ndjson).status == 201)

            // Only a manage token keeps a fix: a fix releases its test from the quarantine.
            let refused = try await server.post("/api/v1/projects/Shop/fixes", token: write, Self.fix)
            #expect(refused.status == 403 && refused.body.contains("use a manage token"), "\(refused.body)")
            let other = try await server.post("/api/v1/projects/Shop/fixes", token: nil, Self.fix)
            #expect(other.status == 401)
            let wrong = Self.fix.replacingOccurrences(of: "0.95", with: "1.5")
            let invalid = try await server.post("/api/v1/projects/Shop/fixes", token: manage, wrong)
            #expect(invalid.status == 400 && invalid.body.contains("\\\"confidence\\\" is from 0.5"), "\(invalid.body)")
            let truncated = try await server.post("/api/v1/projects/Shop/fixes", token: manage, "{\"test\": ")
            #expect(truncated.status == 400 && truncated.body.contains("expected {\\\"test\\\""), "\(truncated.body)")

            let kept = try await server.post("/api/v1/projects/Shop/fixes", token: manage, Self.fix)
            #expect(kept.status == 201, "\(kept.body)")
            let fix = try #require(try kept.json() as? [String: Any])
            #expect(fix["state"] as? String == "fix-pending" && fix["project"] as? String == "Shop", "\(fix)")
            #expect(fix["runsToRelease"] as? Int == 2 && fix["revision"] as? String == "r2")
            #expect(try await Self.standing(server, token: read) == "fix-pending")

            // The fix's revision on main lands it; two clean runs there release it.
            for (index, revision) in ["r2", "r3"].enumerated() {
                let run = RunScript(project: "Shop", revision: revision, at: 2_000 + Double(index) * 100)
                    .start(branch: "main").pass(Self.test).end()
                #expect(try await server.post("/api/v1/events", token: write, run.ndjson).status == 201)
                if index == 0 { #expect(try await Self.standing(server, token: read) == "fix-landed") }
            }
            let fixes = try #require(try await server.get("/api/v1/projects/Shop/fixes", token: read).json() as? [Any])
            let listed = try #require(fixes.first as? [String: Any])
            #expect(fixes.count == 1 && listed["state"] as? String == "released", "\(fixes)")
            #expect(listed["cleanRuns"] as? Int == 2 && listed["landedRevision"] as? String == "r2", "\(listed)")
        }
    }

    static func standing(_ server: LiveServer, token: String) async throws -> String? {
        let status = try await server.get("/api/v1/projects/Shop/tests/\(test)/status", token: token).json()
        return (status as? [String: Any])?["standing"] as? String
    }
}
