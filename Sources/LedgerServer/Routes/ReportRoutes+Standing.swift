import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

extension ReportRoutes {
    /// `tests/{test id}/status`: where the test stands, as `testledger status` says, in the
    /// server's quarantine.
    func status(of test: String, project: String, _ request: Request) async throws -> Response {
        let (runs, since) = (request.count("runs", default: window), try request.since())
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.standings(
                    of: [test], project: project, runs: runs, since: since, thresholds: thresholds,
                    now: Date().timeIntervalSince1970)[0]
            })
    }

    /// `selection`: per run that selected its tests (or observed), the failures missed and the time
    /// saved, as `testledger report selection` says.
    @Sendable func selection(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let runs = request.count("runs", default: window)
        return try JSONResponse.make(
            try await Blocking.lookup { try database.selectionReport(project: name, runs: runs) })
    }
}
