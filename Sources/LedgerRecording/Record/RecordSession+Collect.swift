import Foundation
import LedgerCore
import LedgerStore

extension RecordSession {
    /// Stores what the command's tests wrote: the journals, the runner's outputs, the result bundle
    /// and the --junit files; a shard says which of its tests did not run.
    func collect(
        _ plan: RecordPlan, console: ConsoleCollector, into database: LedgerDatabase, outcome: inout RecordOutcome
    ) throws {
        try database.ingest { sink in try sink.consume(plan.runStart) }
        outcome.failures += try plan.command.storeOutputs(
            status: outcome.status, ran: !plan.runsNothing, console: console, run: plan.runID,
            metadata: plan.metadata, databasePath: ledgerFile, in: database)
        for file in try inputs() {
            do {
                let input = try InputFile.open(file)
                _ = try Ingestion.ingest(
                    input, format: nil, metadata: plan.metadata, runID: plan.runID, into: database)
            } catch {
                outcome.failures.append("\(error)")
            }
        }
        if let share = plan.share { outcome.failures += try unrun(share, run: plan.runID, in: database) }
    }

    /// The shard's tests the run has not stored: for a runner that lists its tests, failures.
    private func unrun(_ share: RecordShard, run: String, in database: LedgerDatabase) throws -> [String] {
        let unrun = share.unrun(stored: try database.testsStored(run: run))
        let shard = "shard \(share.index)/\(share.plan.shards.count)"
        if unrun.isEmpty { return [] }
        if !share.isListedByTheRunner {
            printError(
                "testledger: \(shard): \(unrun.count) test(s) the ledger knows did not run (removed, renamed, or "
                    + "not part of this command): " + unrun.prefix(10).joined(separator: ", "))
            return []
        }
        return ["\(shard): \(unrun.count) of its tests did not run: " + unrun.prefix(10).joined(separator: ", ")]
    }

    /// Runs the failed tests again, then repeats the new tests that passed, as the runner does both.
    func retryAndRepeat(_ plan: RecordPlan, in database: LedgerDatabase, outcome: inout RecordOutcome) throws {
        if plan.retries > 0, outcome.status != 0, outcome.status < 128,
            let runner = plan.command.retryingRunner(try retryPlan(plan, database))
        {
            let retried = try runner.retry(in: database)
            outcome.failures += retried.problems
            outcome.retried = retried
            if retried.passesTheCommand, !options.failOnRetried, try database.failingTests(run: plan.runID).isEmpty {
                outcome.status = 0
            }
        }
        guard let known = plan.known, outcome.status < 128, outcome.retried?.interrupted != true else { return }
        let repeats = RetryPlan(
            retries: plan.repeats, limit: 0, muted: [], run: plan.runID, metadata: plan.metadata,
            environment: plan.environment, outputFolder: plan.folder, databasePath: ledgerFile)
        let (repeated, problems) = try plan.command.repeatNewTests(
            repeats, known: known, base: options.baseBranch, budget: plan.repeatBudget, in: database)
        outcome.failures += problems
        outcome.repeated = repeated
    }

    /// What the failed tests' retries are for: `--retry-only known-flaky` reads what the ledger
    /// called flaky before the run.
    private func retryPlan(_ plan: RecordPlan, _ database: LedgerDatabase) throws -> RetryPlan {
        let knownFlaky =
            options.retryOnly == .knownFlaky
            ? KnownFlakiness(
                tests: plan.flakyBefore,
                groups: try database.failureGroups(
                    project: plan.metadata.project, runs: config.reportWindow, since: nil))
            : nil
        return RetryPlan(
            retries: plan.retries, limit: options.retryLimit, muted: plan.quarantine.muted, knownFlaky: knownFlaky,
            run: plan.runID, metadata: plan.metadata, environment: plan.environment, outputFolder: plan.folder,
            databasePath: ledgerFile)
    }

    /// Ends the run, applies what follows storing it (the automatic quarantine) and lets the
    /// quarantine forgive what it mutes.
    func settle(_ plan: RecordPlan, in database: LedgerDatabase, outcome: RecordOutcome) throws
        -> RecordOutcome.Settled
    {
        try plan.selected?.store(run: plan.runID, in: database)
        try plan.fullRunHashes?.store(run: plan.runID, skipped: plan.quarantine.skipped, in: database)
        if outcome.status < 128 {
            try database.ingest { sink in
                let passed = outcome.status == 0 && outcome.repeated?.failsTheJob != true
                let end = LedgerEvent.RunEnd(at: Date().timeIntervalSince1970, outcome: passed ? .passed : .failed)
                try sink.consume(LedgerRecord(run: plan.runID, event: .runEnd(end)))
            }
        }
        let stored = try database.afterRunsStored(
            [plan.runID], policy: .checkout(config, quarantine: plan.quarantine.entries))
        let settled = try plan.quarantine.settle(
            status: outcome.status, run: plan.runID, stored: stored, in: database)
        let failedForRetries = try options.failOnRetried && (database.run(id: plan.runID)?.flaky ?? 0) > 0
        stored.printQuarantineChanges()
        return .init(
            status: settled.status, mutedFailures: settled.mutedFailures, failedForRetries: failedForRetries,
            notifications: TestNotification.of(quarantine: stored.quarantine, fixes: stored.fixes))
    }

    /// The files named by --junit to ingest after the command.
    private func inputs() throws -> [String] {
        var files: [String] = []
        for path in options.resultFiles {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("testledger: \(path) was not written by the command")
                continue
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).filter {
                    $0.hasSuffix(".xml")
                }.sorted()
                files += names.map { URL(fileURLWithPath: path).appending(path: $0).path }
            } else {
                files.append(path)
            }
        }
        return files
    }
}
