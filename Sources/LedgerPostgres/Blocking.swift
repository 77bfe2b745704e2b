import Foundation
import Logging
import PostgresNIO

/// Waits on the calling thread for `operation`, which runs as a task: the store's callers are
/// threads that may block (a command's main thread, the server's store queue), never the
/// cooperative pool's.
func waitFor<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = Handover<Value>()
    Task {
        do {
            outcome.finish(.success(try await operation()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    return try outcome.wait().get()
}

/// A result that one thread waits for and another hands over.
final class Handover<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error> = .failure(CancellationError())

    func finish(_ result: Result<Value, any Error>) {
        self.result = result
        done.signal()
    }

    func wait() -> Result<Value, any Error> {
        done.wait()
        return result
    }
}

/// A connection leased from the pool to a blocking caller: the task that holds the lease waits
/// until the caller gives it back.
final class Lease: @unchecked Sendable {
    private let lock = NSLock()
    private let lent = Handover<PostgresConnection>()
    private var returned: CheckedContinuation<Void, Never>?
    private var isReturned = false

    /// Runs `body` on the calling thread with a connection of `client`.
    static func withConnection<Result>(
        of client: PostgresClient, _ body: (PostgresConnection) throws -> Result
    ) throws -> Result {
        let lease = Lease()
        Task {
            do {
                try await client.withConnection { connection in
                    lease.lent.finish(.success(connection))
                    await lease.untilReturned()
                }
            } catch {
                lease.lent.finish(.failure(error))
            }
        }
        let connection = try lease.lent.wait().get()
        defer { lease.giveBack() }
        return try body(connection)
    }

    private func untilReturned() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock {
                if isReturned { return true }
                returned = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func giveBack() {
        let waiting = lock.withLock {
            isReturned = true
            defer { returned = nil }
            return returned
        }
        waiting?.resume()
    }
}
