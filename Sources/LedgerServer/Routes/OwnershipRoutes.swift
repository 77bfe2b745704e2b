import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

/// Who owns a project's tests, as its checkouts read it: `PUT /api/v1/ownership` (a write token's
/// project; `testledger upload` sends it) and `GET /api/v1/projects/{project}/ownership`.
struct OwnershipRoutes {
    let database: any ResultStore
    let access: Access

    func add(to router: Router<LedgerRequestContext>) {
        let database = self.database
        let access = self.access
        router.put("/api/v1/ownership") { request, context in
            let project = try access.writer(context)
            let ownership = try await request.decodeJSON(
                Ownership.self, upTo: 1 << 20,
                expected: #"{"codeowners": "…", "rules": [{"pattern": "…", "owners": […]}], "topLevel": […]}"#)
            let now = Date().timeIntervalSince1970
            let changed = try await Blocking.run {
                try database.storeOwnership(ownership, project: project, at: now)
            }
            return try JSONResponse.make(["changed": changed])
        }
        router.get("/api/v1/projects/:project/ownership") { _, context in
            let project = try access.readable(context)
            let ownership = try await Blocking.run { try database.ownership(project: project) }
            guard let ownership else { throw HTTPError(.notFound, message: "project \(project) names no owners") }
            return try JSONResponse.make(ownership)
        }
    }
}
