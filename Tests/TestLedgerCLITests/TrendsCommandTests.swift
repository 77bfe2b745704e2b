import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import Testing

/// Six weeks of daily runs on main, ingested for real, whose trends are planted: a checkout test
/// (its name hostile) turning flaky in week 2 and quiet after, UI tests added in week 3, a slower
/// suite from week 4. The CLI's JSON,
/// the API's and `mcp`'s `trends` must each show every change in its week, and be the same.
@Suite struct TrendsCommandTests {
    static let hostile = #"App.CheckoutTests/pays<script>alert(1)</script>"#

    /// Day `day`'s JUnit file: 2026-09-07 was a Monday.
    static func junit(day: Int) -> String {
        let week = day / 7
        let stamp = ISO8601DateFormatter().string(
            from: Date(timeIntervalSince1970: 1_788_739_200 + Double(day) * 86_400))
        let pays = [14, 16, 18, 20].contains(day) ? #"<failure message="declined"/>"# : ""
        var cases = [
            #"<testcase classname="App.CheckoutTests" name="pays&lt;script&gt;alert(1)&lt;/script&gt;" time="1">\#(pays)</testcase>"#,
            #"<testcase classname="App.CartTests" name="adds" time="1"/>"#,
            #"<testcase classname="App.CartTests" name="removes" time="\#(week >= 4 ? 31 : 1)"/>"#,
            #"<testcase classname="App.PriceTests" name="rounds" time="1"/>"#,
        ]
        if week >= 3 {
            cases += (0..<4).map { #"<testcase classname="AppUITests.FlowTests" name="flow\#($0)" time="2"/>"# }
        }
        return #"<testsuite name="s" timestamp="\#(stamp)">"# + cases.joined() + "</testsuite>"
    }

    static func ingest(_ cli: CLI) async throws {
        for day in 0..<42 {
            let file = try cli.directory.write("day\(day).xml", junit(day: day))
            let ingested = try await cli.run(
                ["ingest", "--project", "Shop", "--branch", "main", "--revision", "r\(day)", file.path])
            #expect(ingested.status == 0, "\(ingested.stderr)")
        }
        // A feature branch's failing runs are not main's trend.
        let feature = try cli.directory.write(
            "feature.xml",
            junit(day: 30).replacingOccurrences(
                of: #"name="adds" time="1"/>"#, with: #"name="adds" time="1"><failure/></testcase>"#))
        #expect(try await cli.run(["ingest", "--project", "Shop", "--branch", "feature", feature.path]).status == 0)
    }

    @Test func theCLITheAPIAndMCPShowEachPlantedChangeInItsWeek() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await Self.ingest(cli)
        let report = try #require(
            try await cli.json(["report", "trends", "--project", "Shop", "--since", "2026-09-01"]) as? [String: Any])
        let periods = try #require(report["periods"] as? [[String: Any]])
        #expect(report["branch"] as? String == "main" && report["by"] as? String == "week" && periods.count == 6)
        #expect(periods.map { $0["runs"] as? Int } == Array(repeating: 7, count: 6), "the feature run is not main's")
        // Week 2: the checkout test fails every other day, and is flaky by the week's end; after
        // three clean weeks its quiet runs are evidence enough: fixed in week 5.
        #expect(periods.map { $0["flaky"] as? Int } == [0, 0, 1, 1, 1, 0], "\(periods)")
        #expect(periods[5]["fixed"] as? [String] == [Self.hostile])
        #expect(periods[2]["newlyFlaky"] as? [String] == [Self.hostile] && periods[2]["failedRuns"] as? Int == 4)
        #expect((periods[2]["lostSeconds"] as? Double ?? 0) > 0 && periods[1]["lostSeconds"] as? Double == 0)
        // Week 3: four UI tests added; week 4: the suite takes 30 s more.
        #expect(periods[3]["testsAdded"] as? Int == 4 && (periods[3]["pyramid"] as? [String: Double])?["ui"] == 0.5)
        let medians = periods.compactMap { ($0["wallTime"] as? [String: Double])?["median"] }
        #expect(medians == [4, 4, 4, 12, 42, 42], "\(medians)")
        let changes = try #require(report["changes"] as? [[String: Any]])
        let said = changes.compactMap { $0["words"] as? String }
        #expect(said.contains("the suite's time (median) 12.00s → 42.00s in the week of 2026-10-05"), "\(said)")
        #expect(said.contains("UI tests' share 0% → 50% in the week of 2026-09-28"), "\(said)")

        let table = try await cli.run(["report", "trends", "--project", "Shop", "--since", "2026-09-01"])
        #expect(table.status == 0 && table.stdout.contains("flaky tests") && table.stdout.contains("▁▁███"), "\(table)")

        // The same composition through every door.
        let token = try await cli.token("Shop", "read")
        let server = try ServerProcess(cli)
        defer { server.stop() }
        var request = HTTPClientRequest(url: server.url + "/api/v1/projects/Shop/trends?since=2026-09-01&by=week")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 22)
        #expect(response.status == .ok)
        let api = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? NSDictionary
        #expect(api == report as NSDictionary)
        let agent =
            try await MCPEndOfInputTests.call("trends", ["since": "2026-09-01", "by": "week"], on: cli)
            as? NSDictionary
        #expect(agent == report as NSDictionary, "\(String(describing: agent))")

        var wrong = HTTPClientRequest(url: server.url + "/api/v1/projects/Shop/trends?by=month")
        wrong.headers.add(name: "Authorization", value: "Bearer \(token)")
        let refused = try await HTTPClient.shared.execute(wrong, timeout: .seconds(60))
        #expect(refused.status == .badRequest)
    }
}
