import Foundation
import LedgerServer
import LedgerTestSupport
import Testing

/// The dashboard in Debian's real headless chromium (`.ci/run` installs it).
@Suite(.serialized, .enabled(if: HeadlessBrowser.find() != nil, Comment(rawValue: OutsideTools.skip("chromium"))))
struct DashboardBrowserTests {
    static func browser() throws -> HeadlessBrowser {
        try #require(
            HeadlessBrowser.find(), "these tests need a headless browser: apt-get install -y chromium")
    }

    @Test func everyPageLoadsWithoutConsoleErrors() async throws {
        let browser = try Self.browser()
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await DashboardSeed.send(to: server)
            for path in ["/", "/projects/Shop", "/projects/Shop/tests/Cart%2Fflips", "/login"] {
                let page = try await browser.load(try #require(URL(string: server.base + path)))
                #expect(page.consoleErrors.isEmpty, "\(path): \(page.consoleErrors)")
                #expect(page.dom.contains("<main>"), "\(path)")
            }
            let project = try await browser.load(try #require(URL(string: server.base + "/projects/Shop")))
            #expect(project.dom.contains(#"<svg class="pyramid""#))
            #expect(project.dom.contains(#"<rect class="ui""#))
            let flaky = try #require(DashboardTests.element("table class=\"flaky\"", in: project.dom))
            #expect(flaky.contains("Cart/flips"))
            #expect(DashboardTests.cells(in: flaky) == ["P", "F", "P", "P"])
        }
    }

    @Test func aTestNamedAsAScriptIsShownAsText() async throws {
        let browser = try Self.browser()
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await DashboardSeed.send(to: server)
            let name = DashboardSeed.hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            for path in ["/projects/Shop", "/projects/Shop/tests/" + name] {
                let page = try await browser.load(try #require(URL(string: server.base + path)))
                // An alert would be reported here as `alert: 1`.
                #expect(page.consoleErrors.isEmpty, "\(path): \(page.consoleErrors)")
                #expect(page.dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
                #expect(!page.dom.contains("<script"), "\(path)")
            }
        }
    }

    @Test func aRunsPageAndADurationChartLoadCleanly() async throws {
        let browser = try Self.browser()
        try await LiveServer.with(LiveServer.publicRead) { server in
            let run = try await RunPageTests.seed(server)
            let runPage = try await browser.load(try #require(URL(string: server.base + "/projects/Shop/runs/" + run)))
            #expect(runPage.consoleErrors.isEmpty, "\(runPage.consoleErrors)")
            #expect(runPage.dom.contains("&lt;img src=x onerror=alert(1)&gt;") && !runPage.dom.contains("<img"))
            #expect(runPage.dom.contains(">failing on base too</span>"))
            let test = try await browser.load(try #require(URL(string: server.base + "/projects/Shop/tests/UI%2Fslow")))
            #expect(test.consoleErrors.isEmpty, "\(test.consoleErrors)")
            let chart = try #require(DashboardTests.element("figure class=\"durations\"", in: test.dom))
            #expect(chart.components(separatedBy: "<rect class=\"bar p\"").count == 6, "\(chart)")
        }
    }

    /// The check itself: a page that does run a script is caught.
    @Test func theBrowserReportsAScriptThatRan() async throws {
        let browser = try Self.browser()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "alert.html", "<!doctype html><p>x</p><script>console.error('boom'); alert(1)</script>")
        let page = try await browser.load(file)
        #expect(page.consoleErrors.contains { $0.contains("boom") })
        #expect(page.consoleErrors.contains("alert: 1"))
    }
}
