import Foundation
import Hummingbird
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// The server follows fixes through its uploads and tells its notify targets, on a task of its
/// own: a target that fails is tried again, one that stalls never delays the upload.
@Suite struct ServerNotifyTests {
    static let test = "A/total"

    actor Received {
        var events: [String] = []
        var tries = 0
        /// Refuses the first try with 503, then takes each notification.
        func answer(_ body: Data) -> HTTPResponse.Status {
            tries += 1
            guard tries > 1 else { return .serviceUnavailable }
            let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            events.append("\(json?["event"] as? String ?? "") \(json?["test"] as? String ?? "")")
            return .ok
        }
    }

    static func configuration(_ address: String, delays: [Double]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration(port: 0, publicRead: true)
        let target = NotifyTarget(name: "team", kind: .webhook, url: try #require(URL(string: address + "/hook")))
        configuration.notifications = NotificationDelivery(
            targets: [target], retryDelays: delays, environment: [:],
            publicURL: URL(string: "https://ledger.example.com"), sleep: { _ in })
        configuration.fixLanding = FixLanding(branch: "main", runs: 1)
        return configuration
    }

    /// A quarantined test with a fix verified on `r2`, in the server's ledger.
    static func pendingFix(_ server: LiveServer) async throws {
        let write = try server.token("Shop", .write)
        let first = RunScript(project: "Shop", revision: "r1", at: 1_000).start(branch: "main").pass(test).end()
        #expect(try await server.post("/api/v1/events", token: write, first.ndjson).status == 201)
        let database = try LedgerDatabase(path: server.databasePath)
        try database.quarantine([
            QuarantinedTest(
                project: "Shop", test: test, configuration: "*", mode: .mute, reason: "flaky", by: "me", since: 1)
        ])
        try database.recordFix(
            RecordedFix(
                test: test, project: "Shop", revision: "r2", branch: "fix", at: 1,
                evidence: .init(
                    verificationRun: "v", runs: 11, failureRateBefore: 0.25, remainingRateBelow: 0.24,
                    confidence: 0.95)))
        try database.close()
    }

    @Test func aFixLandingOnTheServerIsToldAfterARetryAndOnce() async throws {
        let received = Received()
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            Response(status: await received.answer(Data(buffer: try await request.body.collect(upTo: 1 << 20))))
        }
        try await LoopbackServer.serve(router) { address in
            try await LiveServer.with(try Self.configuration(address, delays: [0.01, 0.01])) { server in
                try await Self.pendingFix(server)
                let write = try server.token("Shop", .write)
                let landing = RunScript(project: "Shop", revision: "r2", at: 2_000).start(branch: "main")
                    .pass(Self.test).end()
                #expect(try await server.post("/api/v1/events", token: write, landing.ndjson).status == 201)
                var events: [String] = []
                for _ in 0..<500 where events.count < 2 {
                    try await Task.sleep(for: .milliseconds(10))
                    events = await received.events
                }
                // The first try was refused; the retry told both, once each.
                #expect(events == ["released A/total", "fix-landed A/total"], "\(events)")
                #expect(await received.tries == 3)
                let status = try await server.get("/api/v1/projects/Shop/tests/\(Self.test)/status").json()
                #expect(
                    (status as? [String: Any])?["standing"] as? String == "healthy", "\(String(describing: status))")
            }
        }
    }

    @Test func aStallingTargetNeverDelaysTheUpload() async throws {
        let silent = try SilentPort()
        try await LiveServer.with(try Self.configuration(silent.address, delays: [])) { server in
            try await Self.pendingFix(server)
            let write = try server.token("Shop", .write)
            let landing = RunScript(project: "Shop", revision: "r2", at: 2_000).start(branch: "main")
                .pass(Self.test).end()
            let started = ContinuousClock.now
            #expect(try await server.post("/api/v1/events", token: write, landing.ndjson).status == 201)
            // A send waits up to 10 s for the silent target; the upload was answered first.
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }
}
