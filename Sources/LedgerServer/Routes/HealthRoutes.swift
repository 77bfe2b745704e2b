import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

/// `GET /healthz`: 200 while the store answers, else 503.
///
/// The answer is the text `ok` (or why the store is unreachable); a request that accepts
/// `application/json` gets `{"status": "ok", "version": "0.1.0"}` instead, with `"error"` beside
/// `"status": "unavailable"` on a 503.
struct HealthRoutes {
    /// What `/healthz` answers in JSON.
    struct Health: Codable, Sendable {
        /// `ok`, or `unavailable` when the store cannot be read.
        var status: String
        /// The server's version (``TestLedgerVersion/current``).
        var version: String
        /// Why the store cannot be read, when it cannot.
        var error: String?
    }

    let database: any ResultStore

    func add(to router: Router<LedgerRequestContext>) {
        let database = self.database
        router.get("/healthz") { request, _ in
            let json = request.headers[.accept]?.lowercased().contains("application/json") == true
            do {
                _ = try await Blocking.run { try database.runs(project: nil, limit: 1) }
                guard json else { return JSONResponse.text("ok\n") }
                return try JSONResponse.make(Health(status: "ok", version: TestLedgerVersion.current))
            } catch {
                guard json else {
                    return JSONResponse.text("store unreachable: \(error)\n", status: .serviceUnavailable)
                }
                return try JSONResponse.make(
                    Health(status: "unavailable", version: TestLedgerVersion.current, error: "\(error)"),
                    status: .serviceUnavailable)
            }
        }
    }
}
