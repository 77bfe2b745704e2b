import Foundation
import Hummingbird
import LedgerStore

/// How long a dashboard sign-in lasts, and whether its cookie is marked `Secure`.
struct SessionPolicy: Sendable {
    var lifetime: Double = 12 * 3_600
    /// The server's public address; an `https` one makes every cookie `Secure`.
    var publicURL: String?

    /// `Secure` when the public address is `https`, or a proxy says the request came over TLS.
    func isSecure(_ request: Request) -> Bool {
        publicURL?.lowercased().hasPrefix("https://") == true
            || request.header("x-forwarded-proto")?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
                .lowercased() == "https"
    }

    /// The session cookie, or (with `value` empty) the one that removes it.
    func cookie(_ value: String, for request: Request) throws -> Cookie {
        try Cookie.validated(
            name: DashboardRoutes.sessionCookie, value: value, maxAge: value.isEmpty ? 0 : Int(lifetime), path: "/",
            secure: isSecure(request), httpOnly: true, sameSite: .strict)
    }
}

extension DashboardRoutes {
    /// The cookie a browser keeps its session id in.
    static let sessionCookie = "testledger_session"

    /// The form `POST /login` reads.
    struct LoginForm: Decodable {
        var token: String
    }

    /// `GET /login` shows the form. `POST /login` checks the pasted read token, starts a session
    /// and keeps its id (never the token) in an HttpOnly, SameSite=Strict cookie, `Secure` behind
    /// TLS, then sends the browser to its project (303). `POST /logout` ends the session.
    func addLogin(to router: Router<LedgerRequestContext>) {
        let database = self.database
        let sessions = self.sessions
        router.get("/login") { _, context in
            DashboardResponse.page(LoginPage.render(signedInTo: context.token?.project))
        }
        router.post("/login") { request, _ in
            guard Self.isSameOrigin(request) else {
                return DashboardResponse.page(
                    LoginPage.render(message: "Sign in from this dashboard's own login page."), status: .forbidden)
            }
            let body = try await request.body.collect(upTo: 16 << 10)
            let form = try? URLEncodedFormDecoder().decode(LoginForm.self, from: String(buffer: body))
            let presented = form?.token.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !presented.isEmpty else {
                return DashboardResponse.page(LoginPage.render(message: "Paste a read token."), status: .badRequest)
            }
            let token = try await Tokens.live(presented, in: database)
            guard let token else {
                return DashboardResponse.page(
                    LoginPage.render(message: "That token is unknown or revoked."), status: .unauthorized)
            }
            guard token.scope == .read else {
                return DashboardResponse.page(
                    LoginPage.render(
                        message: "That is a write token: paste a read token, which is all a browser needs."),
                    status: .forbidden)
            }
            let session = try await Sessions.start(token, lifetime: sessions.lifetime, in: database)
            var response = Response(status: .seeOther, headers: [.location: DashboardPath.project(token.project)])
            response.setCookie(try sessions.cookie(session, for: request))
            return response
        }
        router.post("/logout") { request, _ in
            guard Self.isSameOrigin(request) else {
                return DashboardResponse.page(
                    LoginPage.render(message: "Sign out from this dashboard's own pages."), status: .forbidden)
            }
            if let presented = request.cookies[Self.sessionCookie]?.value, !presented.isEmpty {
                try await Sessions.end(presented, in: database)
            }
            var response = Response(status: .seeOther, headers: [.location: "/login"])
            response.setCookie(try sessions.cookie("", for: request))
            return response
        }
    }

    /// Whether a login form came from this dashboard, not another site logging the browser into
    /// a token of its choosing. Browsers say so in `Sec-Fetch-Site`; older ones send `Origin`,
    /// whose host must be the one served (behind a proxy, the first `X-Forwarded-Host`; ports
    /// are not compared, since proxies often drop them). A client that sends neither (curl, a
    /// script) is no browser to protect.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.header("sec-fetch-site") { return site == "same-origin" || site == "none" }
        guard let origin = request.header("origin") else { return true }
        let forwarded = request.header("x-forwarded-host")?.split(separator: ",").first.map(String.init)
        guard let served = forwarded ?? request.head.authority ?? request.header("host"),
            let servedHost = URL(string: "http://" + served.trimmingCharacters(in: .whitespaces))?.host,
            let originHost = URL(string: origin)?.host
        else { return false }
        return originHost.lowercased() == servedHost.lowercased()
    }
}
