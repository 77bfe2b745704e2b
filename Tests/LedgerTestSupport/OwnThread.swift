import Foundation

/// Runs blocking work (waiting on a child process, a browser, a pipe) on a thread of its own
/// and awaits its result, so that Swift's cooperative threads, two on a small machine, stay free
/// for the tests running beside it.
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
