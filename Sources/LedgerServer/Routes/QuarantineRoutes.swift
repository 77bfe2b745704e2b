import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

/// A project's quarantine over the API. Any token of the project reads it (CI jobs apply it with
/// their write tokens); only a manage token changes it.
///
/// `GET /api/v1/projects/{project}/quarantine` (the tests in quarantine, as `quarantine list
/// --format json`), `GET …/quarantine-log` (the trail), `PUT …/quarantine/{test id}` with
/// `{"mode": "mute"|"skip", "reason": "…", "until": "2026-12-31T00:00:00Z", "configuration": "…",
/// "by": "…"}` and `DELETE …/quarantine/{test id}` (`?reason=`, `?configuration=`, `?by=`).
struct QuarantineRoutes {
    let database: any ResultStore
    let access: Access

    /// The body of a `PUT`.
    struct Change: Decodable {
        var mode: QuarantineMode
        var reason: String
        var until: String?
        var configuration: String?
        var by: String?
    }

    func add(to router: Router<LedgerRequestContext>) {
        let database = self.database
        let access = self.access
        let project = router.group("/api/v1/projects/:project")
        project.get("quarantine") { _, context in
            let name = try access.ciReadable(context)
            let now = Date().timeIntervalSince1970
            return try JSONResponse.make(try await Blocking.run { try database.quarantined(project: name, at: now) })
        }
        project.get("quarantine-log") { _, context in
            let name = try access.ciReadable(context)
            return try JSONResponse.make(try await Blocking.run { try database.quarantineLog(project: name) })
        }
        project.put("quarantine/**") { request, context in
            let name = try access.quarantineManageable(context)
            let test = try Self.test(context)
            let change = try await request.decodeJSON(
                Change.self, upTo: 64 * 1024,
                expected: #"{"mode": "mute" or "skip", "reason": "…"} and optionally "until" (ISO 8601), "#
                    + #""configuration", "by""#)
            guard !change.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw HTTPError(.badRequest, message: "request body: \"reason\" must say why")
            }
            let now = Date().timeIntervalSince1970
            var until: Double?
            if let text = change.until {
                guard let date = try? Date(text, strategy: .iso8601), date.timeIntervalSince1970 > now else {
                    throw HTTPError(.badRequest, message: "request body: \"until\" must be a later ISO 8601 time")
                }
                until = date.timeIntervalSince1970
            }
            let entry = QuarantinedTest(
                project: name, test: test, configuration: change.configuration ?? QuarantinedTest.everyConfiguration,
                mode: change.mode, reason: change.reason, by: change.by ?? "token \(context.token?.prefix ?? "")",
                since: now, until: until)
            let changes = try await Blocking.run { try database.quarantine([entry]) }
            return try JSONResponse.make(changes, status: changes.first?.action == .add ? .created : .ok)
        }
        project.delete("quarantine/**") { request, context in
            let name = try access.quarantineManageable(context)
            let test = try Self.test(context)
            let query = request.uri.queryParameters
            let configuration = query.get("configuration") ?? QuarantinedTest.everyConfiguration
            let reason = query.get("reason") ?? "released"
            let by = query.get("by") ?? "token \(context.token?.prefix ?? "")"
            do {
                let changes = try await Blocking.run {
                    try database.release(
                        [test], project: name, configuration: configuration, reason: reason, by: by,
                        at: Date().timeIntervalSince1970)
                }
                return try JSONResponse.make(changes)
            } catch let error as StoreError {
                throw HTTPError(.notFound, message: error.description)
            }
        }
    }

    private static func test(_ context: LedgerRequestContext) throws -> String {
        let raw = context.parameters.getCatchAll().joined(separator: "/")
        guard let test = raw.removingPercentEncoding, !test.isEmpty else {
            throw HTTPError(.badRequest, message: "name a test: /api/v1/projects/<project>/quarantine/<test id>")
        }
        return test
    }
}
