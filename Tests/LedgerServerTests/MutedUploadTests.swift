import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// Uploads flag the results of muted tests as `ingest` does: a muted failure is counted `muted`.
@Suite struct MutedUploadTests {
    /// Mutes `Cart/flaky` everywhere and `Cart/ios` on iOS 17 only, in Shop; `Cart/bank` in another project.
    static func quarantine(_ database: LedgerDatabase) throws {
        try database.quarantine(
            [("Cart/flaky", "*", "Shop"), ("Cart/ios", "iOS 17", "Shop"), ("Cart/bank", "*", "Bank")].map {
                QuarantinedTest(
                    project: $0.2, test: $0.0, configuration: $0.1, mode: .mute, reason: "flaky", by: "ana", since: 100)
            })
    }

    /// The project's runs as `GET /api/v1/projects/Shop/runs` lists them, by id.
    func runs(_ server: LiveServer) async throws -> [String: [String: Any]] {
        let answer = try await server.get("/api/v1/projects/Shop/runs", token: try server.token("Shop", .read))
        #expect(answer.status == 200, "\(answer.body)")
        let runs = try #require(try answer.json() as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: runs.compactMap { run in (run["id"] as? String).map { ($0, run) } })
    }

    @Test func anUploadedEventStreamFlagsTheTestsMutedInItsConfiguration() async throws {
        try await LiveServer.with(prepare: Self.quarantine) { server in
            let write = try server.token("Shop", .write)
            let script = RunScript(project: "Shop").start(configuration: "macOS 14")
                .fail("Cart/flaky").fail("Cart/ios").fail("Cart/bank").pass("Cart/adds").end()
            let sent = try await server.post("/api/v1/events", token: write, script.ndjson)
            #expect(sent.status == 201, "\(sent.body)")
            let run = try #require(try await runs(server)[script.run])
            #expect(run["muted"] as? Int == 1 && run["failed"] as? Int == 3, "\(run)")
        }
    }

    @Test func anImportWithItsConfigurationInTheQueryFlagsItsMutedTests() async throws {
        try await LiveServer.with(prepare: Self.quarantine) { server in
            let junit = """
                <testsuites><testsuite name="Cart" tests="3" failures="3">
                <testcase classname="Cart" name="flaky"><failure message="boom">x</failure></testcase>
                <testcase classname="Cart" name="ios"><failure message="boom">x</failure></testcase>
                <testcase classname="Cart" name="bank"><failure message="boom">x</failure></testcase>
                </testsuite></testsuites>
                """
            let sent = try await server.post(
                "/api/v1/imports?configuration=iOS%2017", token: try server.token("Shop", .write), junit)
            #expect(sent.status == 201, "\(sent.body)")
            let run = try #require(try await runs(server).values.first)
            #expect(run["configuration"] as? String == "iOS 17")
            #expect(run["muted"] as? Int == 2 && run["failed"] as? Int == 3, "\(run)")
        }
    }

    @Test func aLiveRecordersBatchesFlagTheMutedTestsTheyComplete() async throws {
        try await LiveServer.with(prepare: Self.quarantine) { server in
            let write = try server.token("Shop", .write)
            let script = RunScript(project: "Shop").start().pass("Cart/adds").fail("Cart/flaky")
            let first = try await server.post("/api/v1/events?live=1", token: write, script.ndjson)
            #expect(first.status == 201, "\(first.body)")
            #expect(try await runs(server)[script.run]?["muted"] as? Int == 1)
            let rest = try await server.post(
                "/api/v1/events?live=1", token: write, script.fail("Cart/ios").end().ndjson)
            #expect(rest.status == 201, "\(rest.body)")
            let run = try #require(try await runs(server)[script.run])
            #expect(run["muted"] as? Int == 1 && run["failed"] as? Int == 2, "Cart/ios is muted on iOS 17 only")
        }
    }
}
