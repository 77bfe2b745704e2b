import Hummingbird
import Logging
import ServiceLifecycle

extension LedgerServer {
    /// Runs `application` until SIGTERM or SIGINT, then stops accepting connections and finishes
    /// the requests under way before returning.
    /// - Parameters:
    ///   - application: the server, from ``application(database:configuration:metrics:layers:thresholds:onServerRunning:)``.
    ///   - metrics: the counters that application was given, for the number of requests under way.
    ///   - announce: told, as the shutdown begins, how many requests it waits for.
    /// - Throws: why the server stopped, when not by a signal.
    public static func runUntilSignalled(
        _ application: some ApplicationProtocol, metrics: ServerMetrics,
        announce: @escaping @Sendable (String) -> Void
    ) async throws {
        // Services are stopped in reverse order: the announcement goes first, while the requests
        // it counts are still under way.
        let services = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: application),
                    .init(
                        service: ShutdownAnnouncement(metrics: metrics, announce: announce),
                        successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "testledger")))
        try await services.run()
    }
}

/// Says, when a graceful shutdown begins, how many requests are finished before the exit.
private struct ShutdownAnnouncement: Service {
    let metrics: ServerMetrics
    let announce: @Sendable (String) -> Void

    func run() async throws {
        try await gracefulShutdown()
        let count = metrics.requestsUnderWay
        announce("stopping: finishing \(count) request\(count == 1 ? "" : "s") under way")
    }
}
