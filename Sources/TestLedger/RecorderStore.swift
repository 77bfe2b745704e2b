import Foundation
import LedgerCore
import LedgerStore

/// Writes the recorder's events into the SQLite store named by `TESTLEDGER_DB`.
///
/// The store is opened on the first write, not when the binary loads. If it cannot be opened
/// or written, recording stops, the tests go on, and one warning is printed when the process
/// exits.
final class RecorderStore: @unchecked Sendable {
    private let lock = NSLock()
    private var database: LedgerDatabase?
    private var failure: String?
    private var opened = false
    private let environment: [String: String]
    let run: String

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        self.run = RunIdentity.current(environment: environment)
    }

    var path: String {
        environment["TESTLEDGER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? ".testledger/ledger.sqlite"
    }

    /// The run's start, as every write repeats it (the store merges them).
    private lazy var runStart: LedgerEvent.RunStart = {
        let project =
            environment["TESTLEDGER_PROJECT"].flatMap { $0.isEmpty ? nil : $0 }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).lastPathComponent
        return LedgerEvent.RunStart(
            at: Date().timeIntervalSince1970, project: project, source: "xctest", host: ProcessInfo.processInfo.hostName
        )
    }()

    /// Writes events in one transaction, after the run's start; `running` keeps a test without
    /// its end as running.
    func write(running: Bool, _ events: [LedgerEvent]) {
        lock.withLock {
            guard let database = openIfNeeded() else { return }
            do {
                try database.ingest(keepRunning: running) { sink in
                    try sink.consume(LedgerRecord(run: run, event: .runStart(runStart)))
                    for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
                }
            } catch {
                fail("could not write to \(path): \(Self.describe(error))")
            }
        }
    }

    /// Gives the run its end.
    func endRun(at: Double) {
        guard lock.withLock({ database != nil }) else { return }
        write(running: true, [.runEnd(.init(at: at))])
    }

    private func openIfNeeded() -> LedgerDatabase? {
        if opened { return database }
        opened = true
        do {
            database = try LedgerDatabase(path: path)
        } catch {
            fail("could not open \(path): \(Self.describe(error))")
        }
        return database
    }

    private static func describe(_ error: any Error) -> String {
        if error is CocoaError || type(of: error) == NSError.self { return error.localizedDescription }
        return String(describing: error)
    }

    private func fail(_ message: String) {
        database = nil
        guard failure == nil else { return }
        failure = message
        Self.warnAtExit("testledger: recording stopped, the tests ran as usual: \(message)\n")
    }

    nonisolated(unsafe) private static var exitWarning: String?

    private static func warnAtExit(_ message: String) {
        exitWarning = message
        atexit {
            if let warning = RecorderStore.exitWarning {
                FileHandle.standardError.write(Data(warning.utf8))
            }
        }
    }
}
