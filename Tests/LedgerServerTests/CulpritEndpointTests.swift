import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// Why a test fails, by the API and on the test's page.
@Suite(.serialized) struct CulpritEndpointTests {
    static let history = PlantedCulprits(seed: 13, runs: 40, variants: 1)
    static let test = history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id ?? ""

    static func seed(_ server: LiveServer) async throws {
        let write = try server.token("Feed", .write)
        for file in history.files() {
            #expect(try await server.post("/api/v1/events", token: write, file).status == 201)
        }
    }

    static var encodedTest: String { test.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }

    @Test func theAPIAnswersWithTheCLIsJSON() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await Self.seed(server)
            let answer = try await server.get("/api/v1/projects/Feed/tests/\(Self.test)/culprit?runs=36")
            #expect(answer.status == 200, "\(answer.body)")
            // The same bytes `report culprit` prints, from the built binary on the server's store.
            let printed = try await BuiltCLI.run(
                ["report", "culprit", Self.test, "--project", "Feed", "--runs", "36", "--format", "json"],
                database: server.databasePath)
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(
                Array(printed.stdout.utf8) == Array(answer.body.utf8) + Array("\n".utf8),
                "the server answered\n\(answer.body)\nthe CLI printed\n\(printed.stdout)")
            let report = try #require(try answer.json() as? [String: Any])
            #expect(report["verdict"] as? String == "suspects" && report["runs"] as? Int == 36)
            // The test's own detail is still at its id; an encoded slash names it too.
            let detail = try await server.get("/api/v1/projects/Feed/tests/\(Self.encodedTest)")
            #expect((try detail.json() as? [String: Any])?["test"] as? String == Self.test)
            #expect(try await server.get("/api/v1/projects/Feed/tests/Nope%2Ftest/culprit").status == 404)
        }
    }

    @Test(.enabled(if: HeadlessBrowser.find() != nil, Comment(rawValue: OutsideTools.skip("chromium"))))
    func theTestPageShowsWhatSeparatesFailingAttempts() async throws {
        let browser = try DashboardBrowserTests.browser()
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await Self.seed(server)
            let page = try await browser.load(
                try #require(URL(string: server.base + "/projects/Feed/tests/" + Self.encodedTest)))
            #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            #expect(page.dom.contains("<h2>What separates failing attempts</h2>"))
            let table = try #require(DashboardTests.element("table class=\"culprit\"", in: page.dom))
            #expect(table.contains("<th class=\"n\">failing</th>") && table.contains("<th class=\"n\">passing</th>"))
            let body = try #require(DashboardTests.element("tbody", in: String(table)))
            let firstRow = try #require(body.components(separatedBy: "<tr>").dropFirst().first)
            #expect(firstRow.contains("<td>predicate</td><td><code>spinner hidden</code></td>"), "\(firstRow)")
            #expect(page.dom.contains("<code>Open the feed › Show the feed</code>"))
        }
    }
}
