import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

extension ReportRoutes {
    /// `trends`: how the suite changed per `?by=` (day, week or run; week by default) since
    /// `?since=` (90 days by default) on `?branch=` (the default branch, or every run when none names
    /// it), as `report trends` says.
    @Sendable func trends(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let query = request.uri.queryParameters
        let by = try query.get("by").map { text in
            guard let grouping = TrendsReport.Grouping(rawValue: String(text)) else {
                throw HTTPError(.badRequest, message: "by=\(text): give day, week or run")
            }
            return grouping
        }
        let since = try request.since() ?? (Date().timeIntervalSince1970 - 90 * 86_400)
        let named = query.get("branch").map { String($0) }
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.trendsReport(
                    project: name, branch: named ?? defaultBranch, orEveryBranch: named == nil, since: since,
                    grouping: by ?? .week, window: window,
                    thresholds: thresholds, classifier: layers)
            })
    }
}
