import ArgumentParser
import Foundation
import LedgerCore
import LedgerImport
import LedgerRecording
import LedgerStore

/// What became of the run once the command ended: the status the job gets so far, what could not
/// be stored, and what retries and repeats did.
struct RecordOutcome {
    /// The command's status, until retries account for its failures.
    var status: Int32
    var failures: [String] = []
    var retried: RetryOutcome?
    var repeated: NewTestRepeats.Outcome?

    /// The job's status once the quarantine has had its say, and why.
    struct Settled {
        var status: Int32
        var mutedFailures: [String]
        /// `--fail-on-retried` and a test passed only on a retry.
        var failedForRetries: Bool
    }
}

extension TestLedgerCommand.Record {
    /// Stores what the command's tests wrote: the journals, the runner's outputs, the result bundle
    /// and the --junit files; a shard says which of its tests did not run.
    func collect(
        _ plan: RecordPlan, console: ConsoleCollector, into database: LedgerDatabase, outcome: inout RecordOutcome
    ) throws {
        try database.ingest { sink in try sink.consume(plan.runStart) }
        if case .swiftTest(let swiftTest) = plan.command {
            // What the test processes journaled joins the run first.
            let outputs = SwiftTestOutputs(
                invocation: swiftTest, console: console, run: plan.runID, metadata: plan.metadata)
            outcome.failures += try outputs.store(in: database, databasePath: store.filePath) {
                swiftTest.listedTests()
            }
        } else {
            database.recoverPendingJournals(databasePath: store.filePath)
        }
        // A shard given no test ran nothing, and xcodebuild wrote no bundle.
        if case .xcodebuild(let xcodebuild) = plan.command, !plan.runsNothing {
            do {
                try importBundle(xcodebuild, status: outcome.status, plan: plan, into: database)
            } catch {
                outcome.failures.append("\(error)")
            }
        }
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

    /// Runs the failed tests of `swift test` or `xcodebuild` again, then repeats the new tests
    /// that passed; a module did both in its process, and its repeats are read from the ledger.
    func retryAndRepeat(_ plan: RecordPlan, in database: LedgerDatabase, outcome: inout RecordOutcome) throws {
        if plan.retries > 0, outcome.status != 0, outcome.status < 128, let runner = try retryingRunner(plan, database)
        {
            let retried = try runner.retry(in: database)
            outcome.failures += retried.problems
            outcome.retried = retried
            if retried.passesTheCommand, !failOnRetried, try database.failingTests(run: plan.runID).isEmpty {
                outcome.status = 0
            }
        }
        guard let known = plan.known, outcome.status < 128 else { return }
        switch plan.command {
        case .swiftTest(let swiftTest) where outcome.retried?.interrupted != true:
            let repeats = RetryPlan(
                retries: plan.repeats, limit: 0, muted: [], run: plan.runID, metadata: plan.metadata,
                environment: plan.environment, outputFolder: plan.folder, databasePath: store.filePath)
            let (repeated, problems) = try SwiftTestRetries(invocation: swiftTest, plan: repeats)
                .repeatNew(known: known, base: baseBranch, budget: plan.repeatBudget, in: database)
            outcome.failures += problems
            outcome.repeated = repeated
        case .module:
            outcome.repeated = try ModuleRepeats.outcome(
                run: plan.runID, known: known, base: baseBranch, repeats: plan.repeats, budget: plan.repeatBudget,
                in: database)
        case .swiftTest, .xcodebuild:
            break
        }
    }

    /// What runs the failed tests again: `swift test` and `xcodebuild` here, a module in its process.
    private func retryingRunner(_ plan: RecordPlan, _ database: LedgerDatabase) throws -> (any RetryingRunner)? {
        let knownFlaky =
            retryOnly == .knownFlaky
            ? KnownFlakiness(
                tests: plan.flakyBefore,
                groups: try database.failureGroups(
                    project: plan.metadata.project, runs: plan.config.reportWindow, since: nil))
            : nil
        let retries = RetryPlan(
            retries: plan.retries, limit: retryLimit, muted: plan.quarantine.muted, knownFlaky: knownFlaky,
            run: plan.runID, metadata: plan.metadata, environment: plan.environment, outputFolder: plan.folder,
            databasePath: store.filePath)
        switch plan.command {
        case .swiftTest(let swiftTest): return SwiftTestRetries(invocation: swiftTest, plan: retries)
        case .xcodebuild(let xcodebuild): return XcodebuildRetries(invocation: xcodebuild, plan: retries)
        case .module: return nil
        }
    }

    /// Ends the run, applies what follows storing it (the automatic quarantine) and lets the
    /// quarantine forgive what it mutes.
    func settle(_ plan: RecordPlan, in database: LedgerDatabase, outcome: RecordOutcome) throws
        -> RecordOutcome.Settled
    {
        try plan.selected?.store(run: plan.runID, in: database)
        if outcome.status < 128 {
            try database.ingest { sink in
                let passed = outcome.status == 0 && outcome.repeated?.failsTheJob != true
                let end = LedgerEvent.RunEnd(at: Date().timeIntervalSince1970, outcome: passed ? .passed : .failed)
                try sink.consume(LedgerRecord(run: plan.runID, event: .runEnd(end)))
            }
        }
        let stored = try database.afterRunsStored(
            [plan.runID], policy: .checkout(plan.config, quarantine: plan.quarantine.entries))
        let settled = try plan.quarantine.settle(
            status: outcome.status, run: plan.runID, stored: stored, in: database)
        let failedForRetries = try failOnRetried && (database.run(id: plan.runID)?.flaky ?? 0) > 0
        stored.printQuarantineChanges()
        return .init(status: settled.status, mutedFailures: settled.mutedFailures, failedForRetries: failedForRetries)
    }

    /// Stores what xcodebuild's result bundle holds, also when it failed or was interrupted.
    private func importBundle(
        _ xcodebuild: XcodebuildInvocation, status: Int32, plan: RecordPlan, into database: any ResultStore
    ) throws {
        let path = xcodebuild.resultBundle.path
        guard XCResultBundle.isBundle(path) else {
            throw LedgerInputError(
                source: path, problem: "xcodebuild wrote no result bundle (it exited with \(status))",
                fix: "check that the scheme builds and has tests")
        }
        _ = try Ingestion.ingest(
            XCResultBundle(path: path), metadata: plan.metadata, runID: plan.runID, interrupted: status >= 128,
            into: database)
    }

    /// The files named by --junit to ingest after the command.
    private func inputs() throws -> [String] {
        var files: [String] = []
        for path in resultFiles {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("testledger: \(path) was not written by the command\n".utf8))
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
