import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import Testing

/// `testledger upload` to a real `serve`: the server stores a muted test's failure as `ingest` does.
@Suite struct UploadMutedCommandTests {
    @Test func anUploadedFailureOfATestMutedOnTheServerIsStoredMuted() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (write, read) = (try await cli.token("Shop", "write"), try await cli.token("Shop", "read"))
        let added = try await cli.run([
            "quarantine", "add", "CartTests/testRemoves", "--mode", "mute", "--reason", "flaky", "--project", "Shop",
            "--force",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let server = try ServerProcess(cli)
        defer { server.stop() }
        let file = try cli.directory.write("junit.xml", ServeCommandTests.junit)
        let uploaded = try await cli.run(["upload", file.path, "--url", server.url, "--token", write])
        #expect(uploaded.status == 0, "\(uploaded.stderr)")

        var request = HTTPClientRequest(url: server.url + "/api/v1/projects/Shop/runs")
        request.headers.add(name: "Authorization", value: "Bearer \(read)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        #expect(response.status.code == 200)
        let served = try #require(
            try JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [[String: Any]])
        #expect(served.count == 1)
        #expect(served.first?["muted"] as? Int == 1 && served.first?["failed"] as? Int == 1, "\(served)")
        let listed = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(listed.first?["muted"] as? Int == 1, "the same in `testledger runs` on the server's ledger")
    }
}
