import Hummingbird
import LedgerStore

/// Reads `Authorization: Bearer …` and puts the matching live token in the context; a token
/// that matches none is refused (401) at once. Browsers, which cannot send that header, send a
/// read token in the `testledger_token` cookie instead (see `POST /login`).
struct TokenMiddleware: RouterMiddleware {
    let database: LedgerDatabase

    func handle(
        _ request: Request, context: LedgerRequestContext,
        next: (Request, LedgerRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await cookie(request, context, next) }
        guard header.lowercased().hasPrefix("bearer ") else {
            throw HTTPError(.unauthorized, message: "use `Authorization: Bearer <token>`")
        }
        let presented = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let database = self.database
        let token = try await Blocking.run { try database.token(hash: Tokens.hash(presented)) }
        guard let token else { throw HTTPError(.unauthorized, message: "unknown or revoked token") }
        var context = context
        context.token = token
        return try await next(request, context)
    }

    /// Checks the cookie's token as the header's is checked. Only a read token counts, so that a
    /// cookie never sends results; a stale one is dropped and the request goes on without
    /// access, so that the login page can replace it.
    private func cookie(
        _ request: Request, _ context: LedgerRequestContext,
        _ next: (Request, LedgerRequestContext) async throws -> Response
    ) async throws -> Response {
        let name = DashboardRoutes.tokenCookie
        guard let presented = request.cookies[name]?.value, !presented.isEmpty else {
            return try await next(request, context)
        }
        let database = self.database
        let token = try await Blocking.run { try database.token(hash: Tokens.hash(presented)) }
        var context = context
        context.token = token?.scope == .read ? token : nil
        var response = try await next(request, context)
        if context.token == nil {
            response.setCookie(Cookie(name: name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }
}

/// What a route needs: a token of this scope for this project (or public reading).
struct Access {
    let publicRead: Bool

    /// The project a write token sends to.
    /// - Throws: 401 without a token, 403 with a read token.
    func writer(_ context: LedgerRequestContext) throws -> String {
        guard let token = context.token else { throw HTTPError(.unauthorized, message: "a write token is needed") }
        guard token.scope == .write else {
            throw HTTPError(.forbidden, message: "this token may read \(token.project), not write")
        }
        return token.project
    }

    /// Checks that `project` may be read.
    /// - Throws: 401 without a token (unless reading is public), 403 for a write token or
    ///   another project's.
    func read(_ project: String, _ context: LedgerRequestContext) throws {
        if publicRead { return }
        let token = try reader(context)
        guard token.project == project else {
            throw HTTPError(.forbidden, message: "this token belongs to project \(token.project)")
        }
    }

    /// The `{project}` of the path, percent-decoded, once the caller may read it.
    func readable(_ context: LedgerRequestContext) throws -> String {
        let raw = try context.parameters.require("project")
        let project = raw.removingPercentEncoding ?? raw
        try read(project, context)
        return project
    }

    /// The projects the caller may see.
    func visible(_ projects: [ProjectListing], _ context: LedgerRequestContext) throws -> [ProjectListing] {
        if publicRead { return projects }
        let token = try reader(context)
        return projects.filter { $0.project == token.project }
    }

    private func reader(_ context: LedgerRequestContext) throws -> StoredToken {
        guard let token = context.token else { throw HTTPError(.unauthorized, message: "a read token is needed") }
        guard token.scope == .read else {
            throw HTTPError(.forbidden, message: "this token may send to \(token.project), not read: use a read token")
        }
        return token
    }
}
