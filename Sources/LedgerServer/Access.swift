import Hummingbird
import LedgerStore

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

    /// The `{project}` of the path, once the caller may read what a CI job runs its tests by (the
    /// quarantine, the shard timings, the tests the base branch ran): any token of the project
    /// will do, since those jobs hold write tokens.
    func ciReadable(_ context: LedgerRequestContext) throws -> String {
        let project = try pathProject(context)
        if publicRead { return project }
        guard let token = context.token else { throw HTTPError(.unauthorized, message: "a token is needed") }
        guard token.project == project else {
            throw HTTPError(.forbidden, message: "this token belongs to project \(token.project)")
        }
        return project
    }

    /// The `{project}` of the path, once the caller may change its quarantine: only a manage token.
    /// - Throws: 401 without a token, 403 with another scope or another project's.
    func quarantineManageable(_ context: LedgerRequestContext) throws -> String {
        let project = try pathProject(context)
        guard let token = context.token else { throw HTTPError(.unauthorized, message: "a manage token is needed") }
        guard token.scope == .manage else {
            throw HTTPError(
                .forbidden,
                message: "a \(token.scope.rawValue) token cannot change the quarantine: use a manage token "
                    + "(testledger token create --project \(token.project) --scope manage)")
        }
        guard token.project == project else {
            throw HTTPError(.forbidden, message: "this token belongs to project \(token.project)")
        }
        return project
    }

    private func pathProject(_ context: LedgerRequestContext) throws -> String {
        let raw = try context.parameters.require("project")
        return raw.removingPercentEncoding ?? raw
    }

    /// The projects the caller may see.
    func visible(_ projects: [ProjectListing], _ context: LedgerRequestContext) throws -> [ProjectListing] {
        if publicRead { return projects }
        let token = try reader(context)
        return projects.filter { $0.project == token.project }
    }

    private func reader(_ context: LedgerRequestContext) throws -> StoredToken {
        guard let token = context.token else { throw HTTPError(.unauthorized, message: "a read token is needed") }
        // A manage token reads too: whoever changes the quarantine judges it by the reports.
        guard token.scope == .read || token.scope == .manage else {
            throw HTTPError(.forbidden, message: "this token may send to \(token.project), not read: use a read token")
        }
        return token
    }
}
