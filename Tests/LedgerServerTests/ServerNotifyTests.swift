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

    /// Takes each notification but refuses each event's first try, keeping every try's delivery id.
    actor Deliveries {
        var tries: [(event: String, delivery: String)] = []
        func answer(_ request: Request, _ body: Data) -> HTTPResponse.Status {
            let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            let told = "\(json?["event"] as? String ?? "") \(json?["test"] as? String ?? "")"
            let first = !tries.contains { $0.event == told }
            let delivery = request.headers.first { $0.name.canonicalName == "x-testledger-delivery" }?.value
            tries.append((told, delivery ?? ""))
            return first ? .serviceUnavailable : .ok
        }
    }

    @Test func theServerTellsATestThatBecameFlakyOrBrokeTheDefaultBranchOnceEach() async throws {
        let received = Deliveries()
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 20))
            return Response(status: await received.answer(request, body))
        }
        try await LoopbackServer.serve(router) { address in
            try await LiveServer.with(try Self.configuration(address, delays: [0.01])) { server in
                let write = try server.token("Shop", .write)
                var uploads: [String] = []
                for (index, (branch, failing)) in [
                    ("main", false), ("main", false), ("main", false), ("main", true), ("feature", true),
                    ("main", false), ("main", true), ("main", false),
                ].enumerated() {
                    let script = RunScript(project: "Shop", revision: "r\(index)", at: 1_000 + Double(index) * 100)
                        .start(branch: branch).pass("A/tax")
                    uploads.append((failing ? script.fail(Self.test) : script.pass(Self.test)).end().ndjson)
                    #expect(try await server.post("/api/v1/events", token: write, uploads[index]).status == 201)
                }
                // The same file again: the server has its results, and tells nothing twice.
                #expect(try await server.post("/api/v1/events", token: write, uploads[3]).status == 201)
                var tries: [(event: String, delivery: String)] = []
                for _ in 0..<500 where tries.count < 4 {
                    try await Task.sleep(for: .milliseconds(10))
                    tries = await received.tries
                }
                try await Task.sleep(for: .milliseconds(300))
                tries = await received.tries
                // The first failure on main broke it and made it flaky; the feature branch's failure,
                // the later failure of a known flaky test and the file sent again tell no one.
                #expect(
                    Set(tries.map(\.event)) == ["became-flaky A/total", "broken-on-default A/total"]
                        && tries.count == 4, "\(tries)")
                for event in Set(tries.map(\.event)) {
                    let ids = tries.filter { $0.event == event }.map(\.delivery)
                    #expect(ids.count == 2 && ids[0] == ids[1] && ids[0].count == 36, "a retry keeps its id: \(ids)")
                }
                #expect(Set(tries.map(\.delivery)).count == 2, "each notification has its own id")
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
