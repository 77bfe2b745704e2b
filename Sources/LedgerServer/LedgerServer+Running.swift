import Hummingbird
import LedgerCore
import LedgerStore
import Logging
import ServiceLifecycle

extension LedgerServer {
    /// Serves `database` while `body` runs, given the port it listens on (pass port 0 for a free
    /// one), then shuts down gracefully, finishing the requests under way. For tests, benchmarks
    /// and embedding.
    /// - Parameters:
    ///   - database: the store to serve.
    ///   - configuration: where to listen and what to accept.
    ///   - metrics: the counters `GET /metrics` shows.
    ///   - body: runs while the server listens, given its port.
    /// - Returns: what `body` returns.
    /// - Throws: what ``application(database:configuration:metrics:layers:thresholds:onServerRunning:)``
    ///   or `body` throws, or why the server stopped before it listened.
    public static func running<T: Sendable>(
        _ database: any ResultStore & CredentialStore, configuration: ServerConfiguration,
        metrics: ServerMetrics = ServerMetrics(),
        _ body: @Sendable (_ port: Int) async throws -> T
    ) async throws -> T {
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let application = try application(database: database, configuration: configuration, metrics: metrics) {
            announce.yield($0)
        }
        let services = ServiceGroup(
            configuration: .init(services: [application], logger: Logger(label: "testledger")))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                defer { announce.finish() }
                try await services.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                // It stopped before it listened: its error says why.
                while try await group.next() != nil {}
                throw CancellationError()
            }
            do {
                let result = try await body(port)
                await services.triggerGracefulShutdown()
                return result
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}
