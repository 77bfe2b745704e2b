import Foundation
import Logging
import PostgresNIO

/// Waits on the calling thread for `operation`, which runs as a task: the store's callers are
/// threads that may block (a command's main thread, the server's store queue), never the
/// cooperative pool's.
/// - Parameters:
///   - loop: where the task runs (see ``startTask(on:_:)``); the shared pool when `nil`.
///   - operation: the work to wait for.
/// - Returns: what `operation` returned.
/// - Throws: what `operation` threw.
func waitFor<Value: Sendable>(
    on loop: (any EventLoop)? = nil, _ operation: @escaping @Sendable () async throws -> Value
) throws -> Value {
    let outcome = Handover<Value>()
    let work: @Sendable () async -> Void = {
        do {
            outcome.finish(.success(try await operation()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    if let loop { _ = startTask(on: loop, work) } else { Task(operation: work) }
    return try outcome.wait().get()
}

/// Starts `operation` as a task on `loop`'s thread: a connection's work, which waits on nothing
/// but the connection, then starts at once, where a thread of Swift's shared pool may be busy
/// (it started up to 1.5 ms late). On the shared pool where the system has no task executors.
func startTask<Value: Sendable>(
    on loop: any EventLoop, _ operation: @escaping @Sendable () async throws -> Value
) -> Task<Value, any Error> {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return Task(executorPreference: EventLoopExecutor(loop), operation: operation)
    }
    return Task(operation: operation)
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
    private enum State {
        case waiting
        case lent(PostgresConnection)
        case failed(any Error)
        case abandoned
        case returned
    }

    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var state = State.waiting
    private var giveBack: CheckedContinuation<Void, Never>?

    /// How long a caller waits for a connection: the pool waits for ever when the server is gone.
    static let patience: TimeInterval = 60

    /// Runs `body` on the calling thread with a connection of `client`.
    /// - Throws: ``LeaseTimeout`` when no connection came within ``patience``.
    static func withConnection<Result>(
        of client: PostgresClient, _ body: (PostgresConnection) throws -> Result
    ) throws -> Result {
        let lease = Lease()
        Task {
            do {
                try await client.withConnection { connection in
                    guard lease.offer(connection) else { return }
                    await lease.untilReturned()
                }
            } catch {
                lease.fail(error)
            }
        }
        let connection = try lease.take()
        defer { lease.finish() }
        return try body(connection)
    }

    /// Hands the connection over; `false` when the caller gave up waiting, and it goes back at once.
    private func offer(_ connection: PostgresConnection) -> Bool {
        let taken = lock.withLock {
            guard case .waiting = state else { return false }
            state = .lent(connection)
            return true
        }
        if taken { ready.signal() }
        return taken
    }

    private func fail(_ error: any Error) {
        let signal = lock.withLock {
            guard case .waiting = state else { return false }
            state = .failed(error)
            return true
        }
        if signal { ready.signal() }
    }

    private func take() throws -> PostgresConnection {
        if ready.wait(timeout: .now() + Self.patience) == .timedOut {
            let abandoned = lock.withLock {
                guard case .waiting = state else { return false }
                state = .abandoned
                return true
            }
            if abandoned { throw LeaseTimeout(seconds: Self.patience) }
            ready.wait()
        }
        return try lock.withLock {
            switch state {
            case .lent(let connection): return connection
            case .failed(let error): throw error
            default: throw LeaseTimeout(seconds: Self.patience)
            }
        }
    }

    private func untilReturned() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock {
                if case .returned = state { return true }
                giveBack = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func finish() {
        let waiting = lock.withLock {
            state = .returned
            defer { giveBack = nil }
            return giveBack
        }
        waiting?.resume()
    }
}

/// No connection of the pool came in time: the server is gone, or every connection is busy.
struct LeaseTimeout: Error, CustomStringConvertible {
    var seconds: TimeInterval
    var description: String {
        "no connection to the database within \(Int(seconds)) s (is the server up? are all connections busy?)"
    }
}

/// Runs tasks on an event loop's thread.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class EventLoopExecutor: TaskExecutor, @unchecked Sendable {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}
