import Hummingbird
import LedgerStore

/// Reads `Authorization: Bearer …` and puts the matching live token in the context; a token
/// that matches none is refused (401) at once. Browsers, which cannot send that header, send the
/// id of a session started with a read token in the `testledger_session` cookie (see `POST /login`).
struct TokenMiddleware: RouterMiddleware {
    let database: any CredentialStore

    func handle(
        _ request: Request, context: LedgerRequestContext,
        next: (Request, LedgerRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await cookie(request, context, next) }
        guard header.lowercased().hasPrefix("bearer ") else {
            throw HTTPError(.unauthorized, message: "use `Authorization: Bearer <token>`")
        }
        let presented = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let token = try await Tokens.live(presented, in: database)
        guard let token else { throw HTTPError(.unauthorized, message: "unknown or revoked token") }
        var context = context
        context.token = token
        return try await next(request, context)
    }

    /// Looks up the cookie's session. Only a read token's counts, so that a cookie never sends
    /// results; an expired or ended one is dropped and the request goes on without access, so that
    /// the login page can replace it.
    private func cookie(
        _ request: Request, _ context: LedgerRequestContext,
        _ next: (Request, LedgerRequestContext) async throws -> Response
    ) async throws -> Response {
        let name = DashboardRoutes.sessionCookie
        guard let presented = request.cookies[name]?.value, !presented.isEmpty else {
            return try await next(request, context)
        }
        let token = try await Sessions.live(presented, in: database)
        var context = context
        context.token = token?.scope == .read ? token : nil
        var response = try await next(request, context)
        if context.token == nil {
            response.setCookie(Cookie(name: name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }
}
