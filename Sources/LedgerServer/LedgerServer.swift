import Foundation
import Hummingbird
import LedgerCore
import LedgerStore
import Logging

/// `testledger serve`: the team's ingestion service and report API on one ledger.
public enum LedgerServer {
    /// Builds the application: the router, its middleware and every route, in one place.
    ///
    /// Besides the ingest, report and dashboard routes it answers `GET /healthz` (503 when the store
    /// cannot be read; with the version in JSON, see ``HealthRoutes``) and `GET /metrics`.
    /// - Parameters:
    ///   - database: the store to serve.
    ///   - configuration: where to listen and what to accept.
    ///   - metrics: the counters `GET /metrics` shows.
    ///   - layers: classifies tests for the pyramid reports.
    ///   - thresholds: the thresholds of the flaky reports.
    ///   - onServerRunning: called once the server listens, with its port (0 when unknown).
    /// - Returns: the application, ready to run.
    /// - Throws: ``ServerError/openWithoutTokens(host:)`` for a non-loopback address while no
    ///   access token exists.
    public static func application(
        database: any ResultStore & CredentialStore, configuration: ServerConfiguration,
        metrics: ServerMetrics = ServerMetrics(), layers: LayerClassifier = LayerClassifier(),
        thresholds: FlakyThresholds = FlakyThresholds(),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        if !configuration.isLoopback, try !database.hasLiveTokens() {
            throw ServerError.openWithoutTokens(host: configuration.host)
        }
        let access = Access(publicRead: configuration.publicRead)
        let router = Router(context: LedgerRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: TokenMiddleware(database: database))
        IngestRoutes(database: database, configuration: configuration, metrics: metrics, access: access)
            .add(to: router)
        ReportRoutes(
            database: database, access: access, layers: layers, thresholds: thresholds, window: configuration.window,
            defaultBranch: (configuration.fixLanding ?? FixLanding()).defaultBranch
        ).add(to: router)
        QuarantineRoutes(database: database, access: access).add(to: router)
        FixRoutes(database: database, access: access).add(to: router)
        OwnershipRoutes(database: database, access: access).add(to: router)
        DashboardRoutes(
            database: database, access: access, layers: layers, thresholds: thresholds, window: configuration.window,
            sessions: .init(lifetime: configuration.sessionLifetime, publicURL: configuration.publicURL)
        ).add(to: router)
        HealthRoutes(database: database).add(to: router)
        router.get("/metrics") { _, _ in
            JSONResponse.text(metrics.text, type: "text/plain; version=0.0.4; charset=utf-8")
        }
        var logger = Logger(label: "testledger")
        logger.logLevel = .notice
        return Application(
            router: router,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "testledger"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}
