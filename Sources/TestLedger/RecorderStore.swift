import Foundation
import LedgerCore
import LedgerStore

/// Writes the recorder's events into the SQLite store named by `TESTLEDGER_DB`, without making
/// the tests wait for SQLite.
///
/// Each write is appended at once to this process's journal (a `write` to a file, which survives
/// a crash of the process) and stored by a background thread a moment later, many tests per
/// transaction. The journal is deleted once everything in it is stored; after a crash, whoever
/// opens the store next stores what it holds (``PendingJournals``). If the store cannot be
/// written, recording stops, the tests go on, and one warning is printed when the process exits.
final class RecorderStore: RecorderDestination, @unchecked Sendable {
    private let lock = NSCondition()
    private let flushLock = NSLock()
    private let environment: [String: String]
    let run: String
    private var pending: [LedgerRecord] = []
    private var journal: FileHandle?
    private var journalURL: URL?
    private var database: LedgerDatabase?
    private var failure: String?
    private var started = false
    private var wroteRunStart = false

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        self.run = RunIdentity.current(environment: environment)
    }

    var path: String {
        environment["TESTLEDGER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? ".testledger/ledger.sqlite"
    }

    private lazy var runStart = RunIdentity.runStart(environment: environment)

    /// Records events: journaled now, stored shortly. `running` is kept for symmetry with the
    /// store: every batch keeps attempts without an end as running.
    func write(running: Bool, _ events: [LedgerEvent]) {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil else { return }
        startIfNeeded()
        var records: [LedgerRecord] = []
        if !wroteRunStart {
            records.append(LedgerRecord(run: run, event: .runStart(runStart)))
            wroteRunStart = true
        }
        records += events.map { LedgerRecord(run: run, event: $0) }
        var text: [UInt8] = []
        for record in records {
            text += record.jsonLine
            text.append(0x0A)
        }
        do {
            try journal?.write(contentsOf: text)
        } catch {
            fail("could not write its journal \(journalURL?.path ?? ""): \(Self.describe(error))")
            return
        }
        pending += records
        if pending.count >= 2_000 { lock.signal() }
    }

    /// Gives the run its end and stores everything recorded so far.
    func endRun(at: Double) {
        guard lock.withLock({ started }) else { return }
        write(running: true, [.runEnd(.init(at: at))])
        flush()
    }

    /// Stores what is pending now, on the calling thread; the journal goes once all is stored.
    func flush() {
        flushLock.lock()
        defer { flushLock.unlock() }
        let batch = lock.withLock { () -> [LedgerRecord] in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        guard !batch.isEmpty else { return }
        guard let database = openIfNeeded() else { return }
        do {
            try database.ingest(keepRunning: true) { sink in
                for record in batch { try sink.consume(record) }
            }
        } catch {
            lock.withLock { fail("could not write to \(path): \(Self.describe(error))") }
        }
    }

    /// At exit: the last events are stored and the journal removed, unless something failed.
    func finish() {
        flush()
        lock.withLock {
            guard failure == nil, pending.isEmpty, let journalURL else { return }
            try? journal?.close()
            journal = nil
            try? FileManager.default.removeItem(at: journalURL)
            self.journalURL = nil
        }
    }

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        Self.finishAtExit(self)
        let url = PendingJournals.journal(forDatabase: path, run: run, pid: getpid())
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: url.path, contents: nil)
            journal = try FileHandle(forWritingTo: url)
            journalURL = url
        } catch {
            fail("could not open \(path): \(Self.describe(error))")
            return
        }
        let thread = Thread { [self] in flushPeriodically() }
        thread.start()
    }

    private func flushPeriodically() {
        while lock.withLock({ failure == nil }) {
            lock.lock()
            if pending.count < 2_000 { _ = lock.wait(until: Date(timeIntervalSinceNow: 0.1)) }
            lock.unlock()
            flush()
        }
    }

    private func openIfNeeded() -> LedgerDatabase? {
        if let database = lock.withLock({ database }) { return database }
        if lock.withLock({ failure != nil }) { return nil }
        do {
            let opened = try LedgerDatabase(path: path)
            opened.recoverPendingJournals(databasePath: path)
            lock.withLock { database = opened }
            return opened
        } catch {
            lock.withLock { fail("could not open \(path): \(Self.describe(error))") }
            return nil
        }
    }

    private static func describe(_ error: any Error) -> String {
        if error is CocoaError || type(of: error) == NSError.self { return error.localizedDescription }
        return String(describing: error)
    }

    /// Records the first failure and stops recording; call with `lock` held.
    private func fail(_ message: String) {
        guard failure == nil else { return }
        failure = message
        pending.removeAll()
        lock.broadcast()
    }

    nonisolated(unsafe) private static var finishing: RecorderStore?

    /// Stores what is left when the process exits, then prints the warning, if any.
    private static func finishAtExit(_ store: RecorderStore) {
        finishing = store
        atexit {
            guard let store = RecorderStore.finishing else { return }
            store.finish()
            if let failure = store.lock.withLock({ store.failure }) {
                FileHandle.standardError.write(
                    Data("testledger: recording stopped, the tests ran as usual: \(failure)\n".utf8))
            }
        }
    }
}
