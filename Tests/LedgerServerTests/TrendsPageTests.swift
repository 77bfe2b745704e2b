import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@testable import LedgerServer

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The project page draws the trends: a chart per series, each point titled, and the quarantine's
/// changes and fixes marked in their week; hostile names are escaped and every SVG is well formed.
@Suite struct TrendsPageTests {
    static let hostile = #"Cart/<img src=x onerror=alert(1)>"#

    @Test func theProjectPageDrawsItsTrendsWithTheirEvents() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let write = try server.token("Shop", .write)
            let now = Date().timeIntervalSince1970
            // Three weeks of daily runs on main; the hostile test fails every other day of the last.
            for day in 0..<21 {
                let at = now - Double(20 - day) * 86_400
                var script = RunScript(project: "Shop", revision: "r\(day)", at: at).start(branch: "main").pass(
                    "Cart/adds")
                script = day >= 14 && day % 2 == 0 ? script.fail(Self.hostile) : script.pass(Self.hostile)
                #expect(try await server.post("/api/v1/events", token: write, script.end().ndjson).status == 201)
            }
            let database = try LedgerDatabase(path: server.databasePath)
            try database.quarantine([
                QuarantinedTest(
                    project: "Shop", test: Self.hostile, configuration: "*", mode: .mute, reason: "flaky", by: "ana",
                    since: now - 3 * 86_400)
            ])
            try database.close()
            // A verification of it, still flaky, a day before its week's last run.
            let verification = RunScript(project: "Shop", at: now - 86_400)
                .start(kind: .verification, labels: [VerificationReport.verdictLabel(of: Self.hostile): "still-flaky"])
                .fail(Self.hostile).end()
            #expect(try await server.post("/api/v1/events", token: write, verification.ndjson).status == 201)

            let page = try await server.get("/projects/Shop")
            let section = try #require(page.body.range(of: "<h2>Trends"), "\(page.body.prefix(2_000))")
            let trends = String(page.body[section.lowerBound...].prefix { _ in true })
            let figures = trends.components(separatedBy: "<figure class=\"trend\">").count - 1
            #expect(figures == 5, "a chart per series")
            #expect(trends.contains("aria-label=\"flaky tests: 0 → 1"), "\(trends.prefix(1_500))")
            // The quarantine's change is marked in its week, its test's name escaped.
            #expect(trends.contains("<line class=\"event\""))
            #expect(trends.contains("add Cart/&lt;img src=x onerror=alert(1)&gt; (quarantine, by ana)"))
            #expect(trends.contains("verification of Cart/&lt;img src=x onerror=alert(1)&gt;: still-flaky"))
            #expect(!page.body.contains("<img src=x"))
            #expect(trends.contains("<details><summary>1 period(s) with events</summary><ul><li>"), "as markup")
            // No point or tick crosses its chart's name, written at y 11 in 12px type (its descenders to 14).
            let tops = trends.matches(of: /cy="([0-9.]+)" r="2.5"/).compactMap { Double($0.1) }.map { $0 - 2.5 }
            let ticks = trends.matches(of: /<line class="event"[^>]* y1="([0-9.]+)"/).compactMap { Double($0.1) }
            #expect(!tops.isEmpty && tops.min()! > 15 && !ticks.isEmpty && ticks.min()! > 14, "\(tops) \(ticks)")
            // Every drawing parses as XML.
            var rest = Substring(page.body)
            var drawings = 0
            while let start = rest.range(of: "<svg"),
                let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex)
            {
                let svg = String(rest[start.lowerBound..<end.upperBound])
                let parser = XMLParser(data: Data(svg.utf8))
                #expect(
                    parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "") in \(svg.prefix(300))")
                drawings += 1
                rest = rest[end.upperBound...]
            }
            #expect(drawings >= 5)
        }
    }
}

extension TrendsPageTests {
    @Test func anEventIsMarkedInItsPeriodAndNotAfterTheLastEnded() {
        let starts = [0.0, 604_800, 1_209_600]
        let events = [
            TrendsSection.Event(at: -1, words: "before"), .init(at: 700_000, words: "second"),
            .init(at: 1_209_600, words: "third"), .init(at: 1_900_000, words: "after"),
        ]
        let marks = TrendsSection.marks(events, starts: starts, length: 604_800)
        #expect(marks == [1: ["second"], 2: ["third"]])
        #expect(TrendsSection.marks(events, starts: starts, length: .infinity)[2] == ["third", "after"])
    }
}

extension TrendsPageTests {
    @Test func aTestsPageDrawsItsWeeksWithTheFlakyOnesShadedAndItsFixMarked() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let write = try server.token("Shop", .write)
            let now = Date().timeIntervalSince1970
            for day in 0..<21 {
                var script = RunScript(project: "Shop", revision: "r\(day)", at: now - Double(20 - day) * 86_400)
                    .start(branch: "main")
                // Failing every other day of the middle week, slower in the last.
                script =
                    (7..<14).contains(day) && day % 2 == 0
                    ? script.fail(Self.hostile) : script.pass(Self.hostile, duration: day >= 14 ? 3 : 1)
                #expect(try await server.post("/api/v1/events", token: write, script.end().ndjson).status == 201)
            }
            let database = try LedgerDatabase(path: server.databasePath)
            try database.recordFix(
                RecordedFix(
                    test: Self.hostile, project: "Shop", revision: "f1xed0c0ffee", branch: "fix", at: now - 3_600,
                    evidence: .init(
                        verificationRun: "v", runs: 11, failureRateBefore: 0.4, remainingRateBelow: 0.24,
                        confidence: 0.95)))
            try database.close()
            let path =
                "/projects/Shop/tests/" + Self.hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let page = try await server.get(path).body
            let section = try #require(page.range(of: "<h2>Week by week"), "\(page.prefix(1_000))")
            let weeks = String(page[section.lowerBound...])
            #expect(weeks.contains("<figure class=\"trend\">") && weeks.contains("failure rate week by week: 0%"))
            #expect(weeks.contains("<rect class=\"flaky\""), "the failing week is shaded")
            #expect(weeks.contains("<title>fix verified at f1xed0c0</title>"), "\(weeks.prefix(3_000))")
            #expect(!page.contains("<img src=x"))
        }
    }

    @Test func weeksCountRunsFailuresAndFlakes() {
        let monday = 1_788_739_200.0
        let cells = [
            AttemptsInRun(run: "a", startedAt: monday + 10, attempts: [.passed], seconds: 1),
            AttemptsInRun(run: "b", startedAt: monday + 86_400, attempts: [.failed], seconds: 3),
            AttemptsInRun(run: "c", startedAt: monday + 8 * 86_400, attempts: [.failed, .passed], seconds: 2),
            AttemptsInRun(run: "d", startedAt: monday + 9 * 86_400, attempts: [], seconds: 0),
        ]
        let weeks = TestTrendChart.weeks(cells)
        #expect(weeks.map(\.start) == [monday, monday + 7 * 86_400])
        #expect(weeks.map(\.runs) == [2, 1] && weeks.map(\.failed) == [1, 0] && weeks.map(\.flaky) == [true, true])
        #expect(weeks.map(\.medianSeconds) == [2, 2])
    }
}
