import Dispatch
import Hummingbird
import LedgerStore
import NIOPosix

/// Runs store work off Swift's cooperative threads, which must never block, on threads kept for
/// it: a store call may wait on SQLite's lock or on PostgreSQL's answers, and Dispatch on Linux
/// adds a thread for blocked work only about once a second, which would queue concurrent
/// uploads behind a few waiting threads. The one bridge off those threads: the server's routes,
/// `serve`'s start and `mcp`'s answers use it.
package enum Blocking {
    static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 64)
        pool.start()
        return pool
    }()

    package static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await threads.runIfActive(work)
    }

    /// The same for a query whose run or test may not exist: that is 404.
    static func lookup<Value: Sendable>(_ query: @escaping @Sendable () throws -> Value) async throws -> Value {
        do {
            return try await run(query)
        } catch let error as StoreError {
            switch error {
            case .noSuchRun, .noSuchTest: throw HTTPError(.notFound, message: "\(error)")
            default: throw error
            }
        }
    }
}
