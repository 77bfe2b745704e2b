import Foundation
import LedgerCore
import LedgerStore

/// `testledger record`: runs a test command, passes its output through, stores its results with
/// what retries, repeats, a shard and a selection add, and says what the failures mean. The
/// command's status is the job's unless the quarantine or a retry forgives it; a ledger, a server
/// or a code host that cannot be reached never fails the job (but with `strict`).
package struct RecordSession {
    package let options: RecordOptions
    package let config: ProjectConfiguration
    package let metadata: RunMetadata
    /// The ledger file the run is stored in, which the tests' processes journal beside.
    package let ledgerFile: String
    /// Opens the ledger file.
    let openLedger: () throws -> LedgerDatabase
    /// Opens the ledger whose quarantine applies when no team server is set.
    let openQuarantine: () throws -> any ResultStore

    package init(
        options: RecordOptions, config: ProjectConfiguration, metadata: RunMetadata, ledgerFile: String,
        openLedger: @escaping () throws -> LedgerDatabase, openQuarantine: @escaping () throws -> any ResultStore
    ) {
        (self.options, self.config, self.metadata, self.ledgerFile) = (options, config, metadata, ledgerFile)
        (self.openLedger, self.openQuarantine) = (openLedger, openQuarantine)
    }

    /// Runs the command and records it.
    /// - Returns: the job's exit status.
    /// - Throws: ``RecordUsageError`` for options the command and the ledger cannot go with, before
    ///   the command runs; what writing the run's folder throws.
    package func run() throws -> Int32 {
        let runID = LedgerEnvironment().run ?? UUID().uuidString.lowercased()
        let folder = FileManager.default.temporaryDirectory.appending(path: "testledger-record-\(runID)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = try prepare(run: runID, folder: folder)
        let console = ConsoleCollector()
        let commandStatus =
            plan.runsNothing
            ? 0
            : try ChildProcess(arguments: plan.arguments, environment: plan.environment)
                .run(onStart: console.started, onLine: console.consume)
        guard let database = plan.database else { return commandStatus != 0 ? commandStatus : 1 }
        var outcome = RecordOutcome(status: commandStatus)
        let settled: RecordOutcome.Settled
        do {
            try collect(plan, console: console, into: database, outcome: &outcome)
            try retryAndRepeat(plan, in: database, outcome: &outcome)
            settled = try settle(plan, in: database, outcome: outcome)
        } catch {
            // Storing failed part way (the disk filled up): what ran is the command's to say.
            for failure in outcome.failures + ["\(error)"] { printError("testledger: \(failure)") }
            return commandStatus != 0 ? commandStatus : 1
        }
        return try explain(plan, in: database, outcome: outcome, settled: settled)
    }
}
