import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// A run's page, the project page's newest failures and a test's duration chart, on a history
/// with a base branch and a feature branch that produces every verdict.
@Suite struct RunPageTests {
    static let hostile = "Cart/<img src=x onerror=alert(1)>"

    /// Four runs on main, then one on feature; returns the feature run's id.
    static func seed(_ server: LiveServer) async throws -> String {
        let write = try server.token("Shop", .write)
        var feature = ""
        for index in 0..<5 {
            let onFeature = index == 4
            var failing: Set<String> = index % 2 == 0 ? ["Cart/flaky"] : []
            // Cart/onBase fails every main run (broken); Cart/fixed only the newest.
            if !onFeature { failing.insert("Cart/onBase") }
            if index == 3 { failing.insert("Cart/fixed") }
            if onFeature { failing = ["Cart/flaky", "Cart/onBase", "Cart/new", "Cart/muted", hostile] }
            var script = RunScript(project: "Shop", at: 1_700_000_000 + Double(index) * 3_600)
                .start(branch: onFeature ? "feature" : "main")
            for test in ["Cart/flaky", "Cart/onBase", "Cart/fixed", "Cart/new", "Cart/muted", hostile, "UI/slow"] {
                let seconds = test == "UI/slow" ? Double(index + 1) : 0.01
                script = script.result(test, failing.contains(test) ? .failed : .passed, duration: seconds)
            }
            feature = script.run
            #expect(try await server.post("/api/v1/events", token: write, script.end().ndjson).status == 201)
        }
        try server.database.quarantine([
            QuarantinedTest(project: "Shop", test: "Cart/muted", mode: .mute, reason: "flaky", by: "ana", since: 0)
        ])
        let ownership = #"{"rules": [{"pattern": "Cart/*", "owners": ["@acme/shop"]}], "topLevel": []}"#
        #expect(
            try await server.send(.PUT, "/api/v1/ownership", token: write, body: Array(ownership.utf8)).status == 200)
        return feature
    }

    @Test func aRunsPageClassifiesEachFailureWithItsOwnersAndCause() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let run = try await Self.seed(server)
            let page = try await server.get("/projects/Shop/runs/\(run)")
            #expect(page.status == 200, "\(page.body)")
            #expect(
                page.body.contains(
                    "5 failure(s) in 7 tests: 2 new, 1 failing on base too, 1 known flaky, 1 quarantined"))
            let failures = try #require(DashboardTests.element("table class=\"failures\"", in: page.body))
            let rows = failures.components(separatedBy: "<tr>").dropFirst(2)
            func row(_ test: String) -> String? { rows.first { $0.contains(">\(test)</a>") } }
            #expect(row("Cart/new")?.contains(">new</span>") == true)
            #expect(row("Cart/onBase")?.contains(">failing on base too</span>") == true)
            #expect(row("Cart/onBase")?.contains("broken: failed the last 4 runs of main") == true)
            #expect(row("Cart/flaky")?.contains(">known flaky</span>") == true)
            #expect(row("Cart/muted")?.contains(">quarantined</span>") == true)
            #expect(row("Cart/&lt;img src=x onerror=alert(1)&gt;")?.contains(">new</span>") == true, "\(failures)")
            #expect(rows.allSatisfy { $0.contains("<td>@acme/shop</td>") && $0.contains("<pre>failed</pre>") })
            #expect(
                failures.contains(
                    "href=\"/projects/Shop/tests/Cart%2FonBase?run=\(run)\""))
            let causes = try #require(DashboardTests.element("table class=\"causes\"", in: page.body))
            #expect(causes.contains("<td class=\"n\">5</td><td><code>failed</code>"), "\(causes)")
            #expect(
                page.body.contains("Fixed (failing on main, passing here)") && page.body.contains(">Cart/fixed</a>"))
            #expect(page.body.contains("<td class=\"n\">7</td><td class=\"n\">2</td><td class=\"n\">5</td>"))
            #expect(!page.body.contains("<img"))
            #expect(!page.body.contains("What ran beside the failures"), "one test at a time: nothing beside")

            let onMain = try await server.get("/projects/Shop/runs/\(run)?base=feature")
            #expect(
                onMain.body.contains(
                    "5 failure(s) in 7 tests: 2 new, 1 failing on base too, 1 known flaky, 1 quarantined "
                        + "(no feature runs: compared with the 4 runs before)</h2>"),
                "judged against a base without runs: \(onMain.body)")
            #expect(row("Cart/flaky")?.contains("<code>FPFP</code>") == true)
            #expect(try await server.get("/projects/Shop/runs/nope").status == 404)
            #expect(try await server.get("/projects/Bank/runs/\(run)").status == 404)
        }
    }

    @Test func aFailingAttemptIsDrawnWithTheTestsThatRanBesideIt() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let at = 1_700_000_000.0
            let start = { (test: String, offset: Double) in LedgerEvent.testStart(.init(at: at + offset, test: test)) }
            let end = { (test: String, offset: Double, length: Double, outcome: Outcome) in
                LedgerEvent.testEnd(.init(at: at + offset + length, test: test, outcome: outcome, duration: length))
            }
            // Side by side: clearsCart and the hostile name overlap keeps; later runs alone.
            let script = RunScript(project: "Shop", at: at).start(source: "swift-testing")
                .with(start("Cart/keeps", 0)).with(start("Cart/clearsCart", 0.01)).with(start(Self.hostile, 0.02))
                .with(.activityStart(.init(at: at + 0.001, test: "Cart/keeps", activity: "k1", name: "Add the apple")))
                .with(.activityEnd(.init(at: at + 0.04, activity: "k1", outcome: .failed)))
                .with(
                    .activityStart(.init(at: at + 0.012, test: "Cart/clearsCart", activity: "c1", name: "<b>Clear</b>"))
                )
                .with(.activityEnd(.init(at: at + 0.02, activity: "c1", outcome: .passed)))
                .with(end("Cart/clearsCart", 0.01, 0.02, .passed)).with(end(Self.hostile, 0.02, 0.2, .passed))
                .with(end("Cart/keeps", 0, 0.06, .failed)).with(start("Cart/later", 0.5))
                .with(end("Cart/later", 0.5, 0.1, .passed)).end()
            let write = try server.token("Shop", .write)
            #expect(try await server.post("/api/v1/events", token: write, script.ndjson).status == 201)
            let page = try await server.get("/projects/Shop/runs/\(script.run)")
            #expect(page.status == 200, "\(page.body)")
            let figure = try #require(DashboardTests.element("figure class=\"timeline\"", in: page.body))
            #expect(figure.contains("Cart/keeps (attempt 1) and the 2 test(s) that ran beside it, over 220ms"))
            let labels = figure.components(separatedBy: "<text ").dropFirst().map { $0.prefix { $0 != "<" } }
            #expect(
                labels.map { String($0.split(separator: ">").last ?? "") } == [
                    "Cart/keeps", "Cart/clearsCart", "Cart/&lt;img src=x onerror=alert(1)&gt;",
                ])
            #expect(figure.contains("<rect class=\"bar f\" x=\"250\""), "the failing attempt starts the span")
            #expect(!figure.contains("Cart/later") && !page.body.contains("<img"))
            // Each test's steps inside its bar: the failing step against the step beside it.
            #expect(figure.contains("<rect class=\"step f\""), "the failed step in the failure's colour")
            #expect(figure.contains("<title>Add the apple · failed · 1ms to 40ms</title>"), "\(figure)")
            #expect(figure.contains("<title>&lt;b&gt;Clear&lt;/b&gt; · passed · 12ms to 20ms</title>"))
            #expect(!figure.contains("<b>"))
        }
    }

    @Test func theProjectPageShowsTheNewestRunsFailuresFirstAndLinksRuns() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let run = try await Self.seed(server)
            // A verification after it: one test's runs, listed as such, not the suite's newest run.
            let verification = RunScript(project: "Shop", at: 1_700_100_000)
                .start(kind: .verification, labels: [VerificationReport.verdictLabel(of: "Cart/flaky"): "fixed"])
                .result("Cart/flaky", .passed).result("Cart/flaky", .passed).end()
            let write = try server.token("Shop", .write)
            #expect(try await server.post("/api/v1/events", token: write, verification.ndjson).status == 201)
            let page = try await server.get("/projects/Shop")
            #expect(page.body.contains("<h2>Newest run <a href=\"/projects/Shop/runs/\(run)\">"), "\(page.body)")
            let recent = try #require(page.body.range(of: "<h2>Recent runs"))
            let listed = try #require(
                page.body.range(of: "runs/\(verification.run)", range: recent.upperBound..<page.body.endIndex))
            #expect(
                page.body[listed.upperBound...].prefix(400).contains(
                    "xctest · <strong>verification of Cart/flaky: fixed</strong>"))
            // The test's page lists it in its history, marked, with its verdict; the API says the same.
            let testPage = try await server.get("/projects/Shop/tests/Cart/flaky")
            let history = try #require(DashboardTests.element("table class=\"history\"", in: testPage.body))
            let row = try #require(history.range(of: "<code title=\"\(verification.run)\">"))
            #expect(
                history[row.upperBound...].prefix(200).contains("· <strong>verification: fixed</strong>"), "\(history)")
            #expect(
                history.components(separatedBy: "<strong>verification").count == 2, "the suite's runs are not marked")
            let cells = try #require(
                try await server.get("/api/v1/projects/Shop/tests/Cart/flaky/history").json() as? [[String: Any]])
            #expect(cells.first?["kind"] as? String == "verification" && cells.first?["verdict"] as? String == "fixed")
            #expect(cells.dropFirst().allSatisfy { $0["kind"] == nil && $0["verdict"] == nil }, "\(cells)")
            let newest = try #require(page.body.range(of: "<h2>Newest run"))
            let pyramid = try #require(page.body.range(of: "<h2>Test pyramid"))
            #expect(newest.lowerBound < pyramid.lowerBound)
            #expect(page.body.contains("<a href=\"/projects/Shop/runs/\(run)\"><code title=\"\(run)\">"))
            let failures = try #require(DashboardTests.element("table class=\"failures\"", in: page.body))
            #expect(failures.contains(">Cart/new</a>") && failures.contains(">new</span>"))
            let flaky = try #require(DashboardTests.element("table class=\"flaky\"", in: page.body))
            #expect(flaky.contains("<span class=\"owners\">@acme/shop</span>"))
        }
    }

    @Test func aTestsPageDrawsItsDurations() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            _ = try await Self.seed(server)
            let page = try await server.get("/projects/Shop/tests/UI%2Fslow")
            let chart = try #require(DashboardTests.element("figure class=\"durations\"", in: page.body))
            let bars = chart.components(separatedBy: "<rect class=\"bar p\"").dropFirst()
            #expect(bars.count == 5, "\(chart)")
            // Oldest first, each as tall as its duration against the longest (5 s, 66 px).
            let heights = bars.compactMap { bar -> Double? in
                guard let start = bar.range(of: "height=\""), let end = bar[start.upperBound...].firstIndex(of: "\"")
                else { return nil }
                return Double(bar[start.upperBound..<end])
            }
            #expect(heights == [13.2, 26.4, 39.6, 52.8, 66], "\(heights)")
            #expect(chart.contains("<title>5.00s · passed"))
            #expect(chart.contains("longest 5.00s, median 3.00s"))
        }
    }

    /// A run that selection left tests out of says so under its headline, naming the vouching run.
    @Test func aRunsPageSaysWhatSelectionLeftOut() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let write = try server.token("Shop", .write)
            let runs = SelectedRuns(project: "Shop")
            let (vouching, selected) = (runs.vouching, runs.selected)
            // `result` stores no message: the skip's reason is what marks it left out by selection.
            let records = selected.records.map { record -> LedgerRecord in
                guard case .testEnd(var end) = record.event, end.outcome == .skipped else { return record }
                end.message = RunReport.NotAffected.reason
                return LedgerRecord(run: record.run, event: .testEnd(end))
            }
            let ndjson =
                try records.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                .joined(separator: "\n") + "\n"
            #expect(try await server.post("/api/v1/events", token: write, vouching.ndjson).status == 201)
            #expect(try await server.post("/api/v1/events", token: write, ndjson).status == 201)
            let page = try await server.get("/projects/Shop/runs/\(selected.run)")
            #expect(page.status == 200, "\(page.body)")
            #expect(
                page.body.contains(
                    "1 test not run: their code did not change since run \(vouching.run.prefix(3))… (1a2b3c4)."),
                "\(page.body)")
        }
    }
}
