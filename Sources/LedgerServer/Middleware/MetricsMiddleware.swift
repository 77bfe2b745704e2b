import Foundation
import Hummingbird

/// Counts requests by route and status, their latency and those under way, for `GET /metrics`.
struct MetricsMiddleware: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: LedgerRequestContext,
        next: (Request, LedgerRequestContext) async throws -> Response
    ) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        metrics.began()
        let route = { context.endpointPath ?? "unmatched" }
        do {
            let response = try await next(request, context)
            metrics.request(route: route(), status: Int(response.status.code), since: started)
            return response
        } catch let error as HTTPResponseError {
            metrics.request(route: route(), status: Int(error.status.code), since: started)
            throw error
        } catch {
            metrics.request(route: route(), status: 500, since: started)
            throw error
        }
    }
}
