import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

extension RecordSession {
    /// Opens the ledger, reads what the run needs from it (or from the team's server, within the
    /// network deadline), plans the shard and stores the run's start.
    func prepare(run runID: String, folder: URL) throws -> RecordPlan {
        let network = NetworkBudget(seconds: options.networkTimeout)
        let retries = options.retries ?? LedgerEnvironment().testRetries ?? config.retries ?? 0
        let testCommand = TestCommand(options.command, outputFolder: folder)
        if options.retryOnly == .knownFlaky, testCommand.runner == .module {
            throw RecordUsageError(
                "--retry-only known-flaky chooses the tests of swift test's and xcodebuild's retries; this command "
                    + "retries in its own process: leave it out")
        }
        let started = Date().timeIntervalSince1970
        let runStart = LedgerRecord(
            run: runID, event: .runStart(metadata.runStart(at: started, source: testCommand.source)))
        // A ledger that cannot be written (a full disk, a read-only folder) does not stop the
        // tests: they run as they would without TestLedger, and the exit status says so after.
        var database: LedgerDatabase?
        var flakyBefore: Set<String> = []
        var quarantine = QuarantineEnforcement([], configuration: "")
        do {
            let opened = try openLedger()
            flakyBefore = try Set(
                RecordSummary.flakyTests(opened, project: metadata.project, config: config).map(\.test))
            quarantine = QuarantineEnforcement(
                try QuarantineList.inForce(
                    project: metadata.project, ledgerFile: ledgerFile, local: openQuarantine, budget: network),
                configuration: metadata.configuration ?? "")
            database = opened
        } catch {
            printError("testledger: \(error)\ntestledger: running the tests without recording them")
        }
        let history = RecordHistory(database: database, budget: network)
        let share = try options.shard.map { text in
            try RecordShard.planned(
                text, command: testCommand, timings: { try shardTimings(history, skipped: quarantine.skipped) },
                folder: folder)
        }
        if let share { printError(share.announcement) }
        let selected = try selectTests(testCommand, database: database, network: network, folder: folder)
        let repeats = options.repeatNew ?? config.repeatNew ?? 0
        if repeats > 0, !testCommand.runner.repeatsNewTests {
            printError(
                "testledger: --repeat-new does not repeat xcodebuild's tests; Xcode's -test-iterations N "
                    + "-run-tests-until-failure repeats a test plan")
        }
        let known =
            repeats > 0 && database != nil && testCommand.runner.repeatsNewTests
            ? try history.knownTests(
                project: metadata.project, configuration: metadata.configuration ?? "", base: options.baseBranch,
                at: started)
            : nil
        // The run exists before the command starts, so producers inside it join it; it is
        // stored once the plan is made, so that a plan that cannot be made leaves no empty run.
        do {
            try database?.ingest { sink in try sink.consume(runStart) }
        } catch {
            printError("testledger: \(error)\ntestledger: running the tests without recording them")
            database = nil
        }
        var plan = RecordPlan(
            metadata: metadata, runID: runID, folder: folder, network: network, retries: retries,
            command: testCommand, runStart: runStart, database: database, flakyBefore: flakyBefore,
            quarantine: quarantine, share: share, selected: selected, repeats: repeats,
            repeatBudget: options.repeatNewBudget ?? config.repeatNewBudget, known: known)
        if database != nil, !plan.runsNothing {
            plan.fullRunHashes = FullRunHashes.start(
                testCommand, options: options, metadata: metadata, config: config, ledger: ledgerFile)
        }
        let recorded = LedgerEnvironment.forRecordedTests(run: runID, databasePath: ledgerFile, metadata: metadata)
        plan.environment = try testCommand.environment(recorded: recorded) { try moduleEnvironment(plan) }
        return plan
    }

    /// The ledger's timings for a shard's plan (the team server's when there is one), with the
    /// tests quarantined as skipped left out.
    private func shardTimings(_ history: RecordHistory, skipped: [String]) throws -> ShardTimings {
        if metadata.revision == nil {
            printError(
                "testledger: --shard: no revision known (pass --revision): shards of one commit that start "
                    + "at different moments may plan differently")
        }
        var timings = try history.shardTimings(
            project: metadata.project, runs: config.reportWindow, thresholds: config.flaky,
            revision: metadata.revision)
        // The skip list the command is given, the server's when there is one, for this configuration.
        timings.skipped = Set(skipped)
        return timings
    }

    /// What a runner's module is told: it retries, shards and repeats new tests in its own process,
    /// if at all. Bacon's output module reads these variables (a count of 0 too, so that
    /// --retries 0 wins over an inherited variable).
    private func moduleEnvironment(_ plan: RecordPlan) throws -> [String: String] {
        var environment = [LedgerEnvironment.Module.testRetries: String(plan.retries)]
        // The quarantine read before, within the deadline: the module does not ask again.
        let list = try QuarantineList.handToModule(
            plan.quarantine.entries, at: plan.folder.appending(path: "quarantine.json"))
        environment[list.name] = list.value
        if let share = plan.share {
            environment.merge(try share.moduleEnvironment(folder: plan.folder)) { _, new in new }
        }
        if let known = plan.known {
            environment.merge(
                try ModuleRepeats.environment(
                    known: known, repeats: plan.repeats, budget: plan.repeatBudget, folder: plan.folder)
            ) { _, new in new }
        }
        if plan.retries > 0 || plan.repeats > 0 || plan.share != nil {
            printError(
                "testledger: the command gets TESTLEDGER_TEST_RETRIES=\(plan.retries)"
                    + (plan.share.map { ", TESTLEDGER_SHARD=\($0.index)/\($0.plan.shards.count)" } ?? "")
                    + (plan.repeats > 0 ? ", TESTLEDGER_REPEAT_NEW=\(plan.repeats)" : "")
                    + "; only a runner that reads them (Bacon's testledger module) acts on them")
        }
        return environment
    }
}
