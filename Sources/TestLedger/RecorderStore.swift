import Foundation
import LedgerCore
import LedgerStore

/// Records into the SQLite store named by `TESTLEDGER_DB`, costing a test no more than two
/// appends to a file.
///
/// Every write is appended at once to this process's journal (`<db>.pending/<run>-<pid>.ndjson`,
/// one `write(2)`, which survives a crash of the process). SQLite is not touched while the tests
/// run: when the process exits, the journal is stored in one transaction and deleted, and the
/// results of tests muted in the ledger's quarantine are flagged. Under `testledger record`
/// (`TESTLEDGER_JOURNAL_ONLY=1`) the journal is left for `record` to store after the suite,
/// outside the test process. After a crash, whoever opens the store next stores what the journal
/// holds (``PendingJournals``). If the journal or the store cannot be written, recording stops,
/// the tests go on, and one warning is printed when the process exits.
final class RecorderStore: RecorderDestination, @unchecked Sendable {
    private let lock = NSLock()
    private let environment: LedgerEnvironment
    /// Whether another process (`testledger record`) stores the journal once this one exits.
    private let journalOnly: Bool
    let run: String
    private var journal: JournalFile?
    /// What the journal holds, kept to store at exit without reading it back; `nil` once it
    /// grew past ``keptRecordsLimit`` and the journal is read instead.
    private var kept: [LedgerRecord]? = []
    private static let keptRecordsLimit = 50_000
    private var failure: String?
    private var started = false

    init(environment: LedgerEnvironment = LedgerEnvironment()) {
        self.environment = environment
        self.journalOnly = environment.journalOnly
        self.run = RunIdentity.current(environment: environment)
    }

    var path: String { environment.databasePath }

    /// Appends events to the journal, in one write.
    func write(running: Bool, _ events: [LedgerEvent]) {
        lock.withLock {
            guard failure == nil else { return }
            var text: [UInt8] = []
            text.reserveCapacity(256 * events.count)
            if !started {
                started = true
                RecorderExit.finish(self)
                let runStart = RunIdentity.runStart(environment: environment)
                guard let opened = open() else { return }
                journal = opened
                keep(LedgerRecord(run: run, event: .runStart(runStart)), appendingTo: &text)
            }
            for event in events { keep(LedgerRecord(run: run, event: event), appendingTo: &text) }
            do {
                try journal?.append(text)
            } catch {
                fail("could not write its journal \(journal?.url.path ?? ""): \(error)")
            }
        }
    }

    private func keep(_ record: LedgerRecord, appendingTo text: inout [UInt8]) {
        record.appendJSONLine(to: &text)
        guard kept != nil, !journalOnly else { return }
        if kept?.count ?? 0 < Self.keptRecordsLimit { kept?.append(record) } else { kept = nil }
    }

    /// Gives the run its end.
    func endRun(at: Double) {
        guard lock.withLock({ started }) else { return }
        write(running: true, [.runEnd(.init(at: at))])
    }

    /// At exit: the journal is stored and removed, unless another process stores it; the ledger is
    /// closed after.
    func finish() {
        lock.withLock {
            guard failure == nil, let journal else { return }
            journal.close()
            self.journal = nil
            guard !journalOnly else { return }
            do {
                let database = try LedgerDatabase(path: path)
                defer { try? database.close() }
                database.recoverPendingJournals(databasePath: path)
                if let kept {
                    try database.ingest(keepRunning: true) { sink in
                        for record in kept { try sink.consume(record) }
                    }
                } else {
                    try database.ingestJournal(journal.url)
                }
                try FileManager.default.removeItem(at: journal.url)
                try database.afterRunsStored([run])
            } catch {
                fail("could not write to \(path): \(Self.describe(error))")
            }
        }
    }

    private func open() -> JournalFile? {
        let url = PendingJournals.journal(forDatabase: path, run: run, pid: getpid())
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try JournalFile(url)
        } catch {
            fail("could not open \(path): \(Self.describe(error))")
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
    }

    /// Stores the journal; the warning to print, if recording stopped.
    func finishAtExit() -> String? {
        finish()
        return lock.withLock { failure }.map { "recording stopped, the tests ran as usual: \($0)" }
    }
}
