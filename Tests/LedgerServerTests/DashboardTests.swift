import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

/// The dashboard's pages as a real HTTP client gets them.
@Suite struct DashboardTests {
    @Test func theProjectsPageListsEveryProjectWithStrictHeaders() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await DashboardSeed.send(to: server)
            let page = try await server.get("/")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            let policy = try #require(page.headers.first(name: "Content-Security-Policy"))
            #expect(policy.contains("default-src 'none'"))
            #expect(!policy.contains("script-src"))
            #expect(page.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(page.body.contains(#"<a href="/projects/Shop">Shop</a>"#))
            #expect(!page.body.contains("<script"))
        }
    }

    @Test func theProjectPageShowsTheQuarantineAndItsTrail() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await DashboardSeed.send(to: server)
            try server.database.quarantine([
                QuarantinedTest(
                    project: "Shop", test: "Cart/flips", mode: .mute, reason: "<b>flaky</b> on CI", by: "ana",
                    since: 0)
            ])
            try server.database.quarantine([
                QuarantinedTest(project: "Shop", test: "Cart/gone", mode: .skip, reason: "hangs", by: "bo", since: 0)
            ])
            try server.database.release(["Cart/gone"], project: "Shop", reason: "fixed", by: "bo", at: 10)
            let page = try await server.get("/projects/Shop")
            #expect(page.status == 200)
            let table = try #require(Self.element("table class=\"quarantine\"", in: page.body))
            #expect(table.contains(">Cart/flips</a>") && table.contains("&lt;b&gt;flaky&lt;/b&gt; on CI"))
            #expect(!table.contains("Cart/gone"), "released")
            // The seed's four runs, Cart/flips failing in one: all since the quarantine began.
            #expect(table.contains(#"<td class="n">4</td><td class="n">1</td>"#), "\(table)")
            let trail = try #require(Self.element("table class=\"quarantine-log\"", in: page.body))
            #expect(trail.components(separatedBy: "<tr>").count - 1 == 4, "the header and three changes")
            #expect(trail.contains(">remove<") && trail.contains(">fixed<"))
        }
    }

    @Test func theProjectPageDrawsThePyramidAndNamesTheFlakyTest() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await DashboardSeed.send(to: server)
            let page = try await server.get("/projects/Shop")
            #expect(page.status == 200)
            let report = try server.database.pyramidReport(
                project: "Shop", run: nil, since: nil, classifier: LayerClassifier())
            #expect(page.body.contains(#"<svg class="pyramid""#))
            #expect(page.body.contains(#"data-verdict="\#(report.verdict.rawValue)""#))
            for figures in report.layers where figures.tests > 0 {
                #expect(page.body.contains(#"data-layer="\#(figures.layer.rawValue)" data-share="\#(figures.share)""#))
                #expect(
                    page.body.contains(#"data-layer="\#(figures.layer.rawValue)" data-share="\#(figures.timeShare)""#))
            }
            let flaky = try #require(Self.element("table class=\"flaky\"", in: page.body))
            #expect(flaky.contains(">Cart/flips</a>"))
            #expect(!flaky.contains("Cart/adds"))
            // The strip: one cell per run, oldest first, each linking to that run's result.
            #expect(Self.cells(in: flaky) == ["P", "F", "P", "P"])
            let predicates = try #require(Self.element("table class=\"predicates\"", in: page.body))
            #expect(predicates.contains("cart badge shows 1"))
            #expect(predicates.contains(">flaky</span>"))
            #expect(predicates.contains("max 100%"))
            let cost = try server.database.costReport(
                project: "Shop", runs: 30, since: nil, thresholds: FlakyThresholds(), now: Date().timeIntervalSince1970)
            #expect(cost.tests.map(\.test) == ["Cart/flips"] && cost.seconds > 0, "\(cost)")
            #expect(page.body.contains("<p>\(CostRendering.headline(cost))</p>"))
            let costs = try #require(Self.element("table class=\"cost\"", in: page.body))
            #expect(costs.contains(">Cart/flips</a>") && costs.contains(Figures.seconds(cost.seconds)))
            #expect(page.body.contains("<h2>Recent runs</h2>"))
        }
    }

    @Test func aTestsPageShowsHistoryActivitiesCapturesAndFailures() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            let runs = try await DashboardSeed.send(to: server)
            let page = try await server.get("/projects/Shop/tests/Cart%2Fflips?run=\(runs[1])")
            #expect(page.status == 200, "\(page.body)")
            #expect(page.body.contains("<h1>Cart/flips</h1>"))
            #expect(page.body.contains("History: 4 recent run(s)"))
            #expect(Self.cells(in: page.body) == ["P", "F", "P", "P"])
            #expect(page.body.contains("<pre>Expected &lt;b&gt;1&lt;/b&gt; &amp; got 0</pre>"))
            // The activities tree: the inner step inside the outer one's list item.
            let tree = try #require(Self.element("ul class=\"tree\"", in: page.body))
            let outer = try #require(tree.range(of: "Open the cart"))
            let inner = try #require(tree.range(of: "Tap &lt;Checkout&gt; &amp; wait"))
            #expect(outer.upperBound < inner.lowerBound)
            #expect(tree[outer.upperBound..<inner.lowerBound].contains("<ul class=\"tree\">"))
            let captures = try #require(Self.element("table class=\"captures\"", in: page.body))
            #expect(captures.contains("AlertVerifier"))
            #expect(captures.contains("title: Pay &quot;now&quot;?"))
            #expect(page.body.contains("<span class=\"ko\">timed out</span>"))
            let attachments = try #require(Self.element("table class=\"attachments\"", in: page.body))
            #expect(attachments.contains("<td>Cart &lt;screen&gt;.png</td><td>image/png</td>"), "\(attachments)")
            #expect(attachments.contains("47.1 KiB") && attachments.contains("Tap &lt;Checkout&gt; &amp; wait"))
            let latest = try await server.get("/projects/Shop/tests/Cart/flips")
            #expect(latest.body.contains("<strong><code title=\"\(runs[3])\">"))
            #expect(!latest.body.contains("<h2>Failures"))
        }
    }

    @Test func markupInANameIsShownAsText() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await DashboardSeed.send(to: server)
            let path =
                "/projects/Shop/tests/" + DashboardSeed.hostile.addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)!
            let page = try await server.get(path)
            #expect(page.status == 200, "\(page.body)")
            #expect(page.body.contains("<h1>Hostile/&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
            #expect(!page.body.contains("<script"))
            let project = try await server.get("/projects/Shop")
            let broken = try #require(Self.element("table class=\"broken\"", in: project.body))
            #expect(broken.contains(">Hostile/&lt;script&gt;alert(1)&lt;/script&gt;</a>"))
            #expect(broken.contains("href=\"/projects/Shop/tests/Hostile%2F%3Cscript%3Ealert%281%29%3C%2Fscript%3E\""))
            #expect(!project.body.contains("<script"))
        }
    }

    @Test func anUnknownTestOrProjectIs404() async throws {
        try await LiveServer.with(LiveServer.publicRead) { server in
            try await DashboardSeed.send(to: server)
            #expect(try await server.get("/projects/Shop/tests/Nope/none").status == 404)
            #expect(try await server.get("/projects/Bank").status == 404)
        }
    }

    @Test func aBrowserSignsInWithASessionTheServerCanEnd() async throws {
        try await LiveServer.with { server in
            try await DashboardSeed.send(to: server)
            let unauthorized = try await server.get("/projects/Shop")
            #expect(unauthorized.status == 401)
            #expect(unauthorized.body.contains(#"<form method="post" action="/login">"#))

            let client = HTTPClient(configuration: .init(redirectConfiguration: .disallow))
            func login(_ token: String, headers: [(String, String)] = []) async throws -> LiveServer.Answer {
                try await server.send(
                    .POST, "/login", body: Array("token=\(token)".utf8),
                    headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, client: client)
            }
            do {
                #expect(try await login(try server.token("Shop", .write)).status == 403)
                #expect(try await login("tl_made_up").status == 401)
                // Another site's form cannot log the browser into a token of its choosing.
                let read = try server.token("Shop", .read)
                for foreign in [[("Sec-Fetch-Site", "cross-site")], [("Origin", "https://elsewhere.example")]] {
                    let refused = try await login(read, headers: foreign)
                    #expect(refused.status == 403, "\(foreign)")
                    #expect(refused.headers.first(name: "Set-Cookie") == nil)
                }
                let origin = server.base.replacingOccurrences(of: "/$", with: "", options: .regularExpression)
                #expect(try await login(read, headers: [("Origin", origin)]).status == 303)
                #expect(try await login(read, headers: [("Sec-Fetch-Site", "same-origin")]).status == 303)
                let proxied = [
                    ("Origin", "https://CI.example:8443"), ("X-Forwarded-Host", "ci.example, proxy.internal"),
                ]
                #expect(try await login(read, headers: proxied).status == 303, "the public name behind a proxy")
                let answer = try await login(read)
                #expect(answer.status == 303)
                #expect(answer.headers.first(name: "Location") == "/projects/Shop")
                let cookie = try #require(answer.headers.first(name: "Set-Cookie"))
                #expect(cookie.contains("HttpOnly"))
                #expect(cookie.contains("SameSite=Strict"))
                #expect(cookie.contains("Max-Age=43200") && !cookie.contains("Secure"), "\(cookie)")
                let pair = String(cookie.prefix { $0 != ";" })
                // The cookie holds a session id, never the token.
                #expect(pair.hasPrefix("testledger_session=ts_") && !pair.contains(read))
                let tls = try #require(
                    try await login(read, headers: [("X-Forwarded-Proto", "https")]).headers.first(name: "Set-Cookie"))
                #expect(tls.contains("Secure"), "behind TLS: \(tls)")

                let page = try await server.send(.GET, "/projects/Shop", headers: [("Cookie", pair)])
                #expect(page.status == 200)
                #expect(page.body.contains(#"<svg class="pyramid""#))
                let other = try await server.send(.GET, "/projects/Bank", headers: [("Cookie", pair)])
                #expect(other.status == 403)
                // A cookie's token reads; it never sends results.
                let before = try server.storedResults()
                let sent = try await server.send(
                    .POST, "/api/v1/events",
                    body: Array(RunScript(project: "Shop").start().pass("A/a").end().ndjson.utf8),
                    headers: [("Cookie", pair)])
                #expect(sent.status == 403)
                #expect(try server.storedResults() == before)

                // Signing out ends the session on the server: the same cookie no longer reads.
                let out = try await server.send(.POST, "/logout", headers: [("Cookie", pair)], client: client)
                #expect(out.status == 303 && out.headers.first(name: "Set-Cookie")?.contains("Max-Age=0") == true)
                #expect(try await server.send(.GET, "/projects/Shop", headers: [("Cookie", pair)]).status == 401)
                // Revoking the token ends its sessions.
                let again = String(
                    try #require(try await login(read).headers.first(name: "Set-Cookie")).prefix { $0 != ";" })
                #expect(try await server.send(.GET, "/projects/Shop", headers: [("Cookie", again)]).status == 200)
                let stored = try #require(
                    try server.database.tokens().first { $0.scope == .read && $0.revokedAt == nil })
                #expect(try server.database.revokeToken(String(stored.id)))
                #expect(try await server.send(.GET, "/projects/Shop", headers: [("Cookie", again)]).status == 401)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    @Test func aSessionExpiresAndAnHTTPSPublicAddressMarksItsCookieSecure() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.publicURL = "https://ledger.example"
        try await LiveServer.with(configuration) { server in
            try await DashboardSeed.send(to: server)
            let read = try server.token("Shop", .read)
            let client = HTTPClient(configuration: .init(redirectConfiguration: .disallow))
            let answer: LiveServer.Answer
            do {
                answer = try await server.send(
                    .POST, "/login", body: Array("token=\(read)".utf8),
                    headers: [("Content-Type", "application/x-www-form-urlencoded")], client: client)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            let cookie = try #require(answer.headers.first(name: "Set-Cookie"))
            #expect(cookie.contains("Secure"), "\(cookie)")
            // A session that ended its lifetime ago reads nothing.
            let stored = try #require(try server.database.tokens().first { $0.scope == .read })
            let expired = "ts_expired"
            try server.database.startSession(
                hash: Tokens.hash(expired), token: stored.id, at: Date().timeIntervalSince1970 - 100, lifetime: 50)
            let page = try await server.send(
                .GET, "/projects/Shop", headers: [("Cookie", "testledger_session=\(expired)")])
            #expect(page.status == 401)
            #expect(
                page.headers.first(name: "Set-Cookie")?.contains("Max-Age=0") == true, "the stale cookie is dropped")
        }
    }

    /// The first element that opens with `<opening…>`, up to its closing tag (not nested).
    static func element(_ opening: String, in html: String) -> Substring? {
        guard let start = html.range(of: "<" + opening) else { return nil }
        let name = opening.prefix { $0 != " " }
        guard let end = html.range(of: "</\(name)>", range: start.upperBound..<html.endIndex) else { return nil }
        return html[start.lowerBound..<end.upperBound]
    }

    /// The letters of the first outcome strip's cells, in order.
    static func cells(in html: some StringProtocol) -> [String] {
        let html = Substring(html)
        guard let strip = html.range(of: "<span class=\"strip\""),
            var rest = html[strip.upperBound...].firstIndex(of: ">").map({ html[html.index(after: $0)...] })
        else { return [] }
        var letters: [String] = []
        while let cell = rest.prefixMatch(of: Self.cell) {
            letters.append(String(cell.output.1))
            rest = rest[cell.range.upperBound...]
        }
        return letters
    }

    nonisolated(unsafe) static let cell = /<(?:a|span) class="cell[^"]*"[^>]*>([^<]*)<\/(?:a|span)>/
}
