import Dispatch

/// Runs SQLite work off Swift's cooperative threads, which must never block.
enum Blocking {
    private static let queue = DispatchQueue(label: "testledger.store", attributes: .concurrent)

    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
