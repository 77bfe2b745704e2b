import Dispatch
import Hummingbird
import LedgerStore

/// Runs SQLite work off Swift's cooperative threads, which must never block.
enum Blocking {
    private static let queue = DispatchQueue(label: "testledger.store", attributes: .concurrent)

    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
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
