import Foundation
import LedgerCore
import LedgerDelivery

/// Sends the recorder's events to `testledger serve` (`TESTLEDGER_URL`, `TESTLEDGER_TOKEN`).
///
/// Events are cut into batches at most half a second apart, each written to the spool
/// (`TESTLEDGER_SPOOL`) before a background thread sends it, in order, and deletes it once the
/// server has stored it. Failed sends are retried with backoff; when the server stays down the
/// batches stay in the spool for `testledger upload --spool`, the tests go on, and one warning
/// says so at exit.
final class RecorderUpload: RecorderDestination, @unchecked Sendable {
    private let lock = NSCondition()
    private let sendLock = NSLock()
    private let client: UploadClient
    private let spool: SpoolDirectory
    private let run: String
    private let environment: LedgerEnvironment
    /// Resolved at the first event, not when the library loads: resolving may ask git.
    private lazy var runStart = RunIdentity.runStart(environment: environment)
    private var batcher = EventBatcher(targetBytes: 1 << 20)
    private var ready: [[UInt8]] = []
    private var spooled: [URL] = []
    private var started = false
    private var wroteRunStart = false
    private var problem: String?
    /// Batches that could be neither sent nor spooled.
    private var lost = 0

    init(server: URL, token: String, environment: LedgerEnvironment, policy: ResendPolicy = ResendPolicy()) {
        // A short timeout: the process may be waiting to exit on it.
        self.client = UploadClient(server: server, token: token, policy: policy, timeout: 15)
        self.spool = SpoolDirectory(environment: environment)
        self.run = RunIdentity.current(environment: environment)
        self.environment = environment
    }

    func write(running: Bool, _ events: [LedgerEvent]) {
        lock.withLock {
            startIfNeeded()
            if !wroteRunStart {
                wroteRunStart = true
                add(LedgerRecord(run: run, event: .runStart(runStart)))
            }
            for event in events { add(LedgerRecord(run: run, event: event)) }
        }
    }

    func endRun(at: Double) {
        guard lock.withLock({ started }) else { return }
        write(running: true, [.runEnd(.init(at: at))])
        send()
    }

    /// Spools what is pending and sends the spooled batches, on the calling thread.
    private func send() {
        sendLock.lock()
        defer { sendLock.unlock() }
        let batches = lock.withLock { () -> [[UInt8]] in
            if let last = batcher.flush(betweenTestsOnly: false) { ready.append(last) }
            defer { ready.removeAll() }
            return ready
        }
        for batch in batches {
            do {
                spooled.append(try spool.add(batch, live: true))
            } catch {
                lock.withLock {
                    lost += 1
                    problem = problem ?? "could not write the spool \(spool.url.path): \(error)"
                }
            }
        }
        while let next = spooled.first, lock.withLock({ problem == nil }) {
            let failure: String
            switch client.send(file: next) {
            case .stored:
                try? FileManager.default.removeItem(at: next)
                spooled.removeFirst()
                continue
            case .refused(_, let message), .unreachable(let message): failure = message
            }
            lock.withLock { problem = "could not send to \(client.server.absoluteString) (\(failure))" }
        }
    }

    /// Call with `lock` held.
    private func add(_ record: LedgerRecord) {
        if let batch = batcher.add(record) {
            ready.append(batch)
            lock.signal()
        }
    }

    /// Call with `lock` held.
    private func startIfNeeded() {
        guard !started else { return }
        started = true
        RecorderExit.finish(self)
        Thread { [self] in sendPeriodically() }.start()
    }

    private func sendPeriodically() {
        while lock.withLock({ problem == nil }) {
            lock.withLock { _ = lock.wait(until: Date(timeIntervalSinceNow: 0.5)) }
            send()
        }
    }

    /// Sends what is left, spooling what cannot be sent; the warning to print, if sending stopped.
    func finishAtExit() -> String? {
        send()
        guard let problem = lock.withLock({ problem }) else { return nil }
        // What could not be sent is still spooled, whatever stopped the sending.
        let flushed = lock.withLock { () -> [[UInt8]] in
            defer { ready.removeAll() }
            return ready + [batcher.finish()].compactMap { $0 }
        }
        var lost = lock.withLock { self.lost }
        for batch in flushed where (try? spool.add(batch, live: true)) == nil { lost += 1 }
        let fate =
            lost > 0
            ? "\(lost) batch(es) could not be kept in \(spool.url.path) and are lost"
            : "they wait in \(spool.url.path) for `testledger upload --spool`"
        return "results not sent, the tests ran as usual: \(problem); \(fate)"
    }
}
