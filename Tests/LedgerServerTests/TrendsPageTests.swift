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

            let page = try await server.get("/projects/Shop")
            let section = try #require(page.body.range(of: "<h2>Trends"), "\(page.body.prefix(2_000))")
            let trends = String(page.body[section.lowerBound...].prefix { _ in true })
            let figures = trends.components(separatedBy: "<figure class=\"trend\">").count - 1
            #expect(figures == 5, "a chart per series")
            #expect(trends.contains("aria-label=\"flaky tests: 0 → 1"), "\(trends.prefix(1_500))")
            // The quarantine's change is marked in its week, its test's name escaped.
            #expect(trends.contains("<line class=\"event\""))
            #expect(trends.contains("add Cart/&lt;img src=x onerror=alert(1)&gt; (quarantine, by ana)"))
            #expect(!page.body.contains("<img src=x"))
            #expect(trends.contains("<details><summary>1 period(s) with events</summary><ul><li>"), "as markup")
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
