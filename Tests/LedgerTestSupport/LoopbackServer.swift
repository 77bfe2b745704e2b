#if canImport(Hummingbird)
    import Hummingbird
    import Testing

    /// A stand-in server on an ephemeral port of 127.0.0.1, for as long as `body` runs.
    public enum LoopbackServer {
        /// Runs `body` with the address of a server answering by `router`.
        public static func serve<T: Sendable>(
            _ router: Router<BasicRequestContext>, _ body: @escaping @Sendable (String) async throws -> T
        ) async throws -> T {
            let (ports, announce) = AsyncStream.makeStream(of: Int.self)
            let application = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { announce.yield($0.localAddress?.port ?? 0) })
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await application.run() }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                defer { group.cancelAll() }
                return try await body("http://127.0.0.1:\(port)")
            }
        }
    }
#endif
