import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerRecording
import LedgerStore

/// What `record` settles before the command runs: the run, its ledger, the quarantine, the shard,
/// the new tests to repeat, and what the command's environment tells the tests.
struct RecordPlan {
    let config: ProjectConfiguration
    let metadata: RunMetadata
    let runID: String
    let folder: URL
    let network: NetworkBudget
    let retries: Int
    let command: TestCommand
    let runStart: LedgerRecord
    /// `nil` when the ledger cannot be written: the tests then run without being recorded.
    let database: LedgerDatabase?
    let flakyBefore: Set<String>
    let quarantine: QuarantineEnforcement
    let share: RecordShard?
    let selected: RecordSelected?
    let repeats: Int
    let repeatBudget: Double?
    /// What the base branch ran, read before the command: new tests are the others.
    let known: TestsKnownBefore?
    /// The command's environment: this process's, with what the tests and the runner's module read.
    var environment: [String: String] = [:]

    /// A shard with no tests runs nothing (no `--filter` would run them all), nor a selection of none.
    var runsNothing: Bool {
        share.map { $0.isListedByTheRunner && $0.tests.isEmpty } == true || selected?.runsNothing == true
    }
}

extension TestLedgerCommand.Record {
    /// The branch failures and new tests are judged against.
    var baseBranch: String {
        base ?? GitHubJob(environment: ProcessInfo.processInfo.environment).baseBranch
    }

    /// Opens the ledger, reads what the run needs from it (or from the team's server, within the
    /// network deadline), plans the shard and stores the run's start.
    func prepare(run runID: String, folder: URL) throws -> RecordPlan {
        let config = try ProjectConfiguration.load()
        let metadata = runInfo.metadata(config: config)
        let network = NetworkBudget(seconds: networkTimeout)
        let retries = self.retries ?? LedgerEnvironment().testRetries ?? config.retries ?? 0
        let testCommand = TestCommand(command, outputFolder: folder)
        if retryOnly == .knownFlaky, testCommand.runner == .module {
            throw ValidationError(
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
            let opened = try store.openFile()
            flakyBefore = try Set(RecordSummary.flakyTests(opened, project: metadata.project, config: config))
            quarantine = QuarantineEnforcement(
                try TestLedgerCommand.Quarantine.current(project: metadata.project, store: store, budget: network),
                configuration: metadata.configuration ?? "")
            database = opened
        } catch {
            printError("testledger: \(error)\ntestledger: running the tests without recording them")
        }
        let history = RecordHistory(database: database, budget: network)
        let share: RecordShard?
        do {
            share = try shard.map { text in
                try RecordShard.planned(
                    text, command: testCommand,
                    timings: { try shardTimings(history, skipped: quarantine.skipped, metadata, config) },
                    folder: folder)
            }
        } catch let error as RecordUsageError {
            throw ValidationError(error.description)
        }
        if let share { printError(share.announcement) }
        let selected = try selectTests(
            testCommand, metadata: metadata, config: config, database: database, network: network, folder: folder)
        let repeats = repeatNew ?? config.repeatNew ?? 0
        if repeats > 0, !testCommand.runner.repeatsNewTests {
            printError(
                "testledger: --repeat-new does not repeat xcodebuild's tests; Xcode's -test-iterations N "
                    + "-run-tests-until-failure repeats a test plan")
        }
        let known =
            repeats > 0 && database != nil && testCommand.runner.repeatsNewTests
            ? try history.knownTests(
                project: metadata.project, configuration: metadata.configuration ?? "", base: baseBranch,
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
            config: config, metadata: metadata, runID: runID, folder: folder, network: network, retries: retries,
            command: testCommand, runStart: runStart, database: database,
            flakyBefore: flakyBefore, quarantine: quarantine, share: share, selected: selected, repeats: repeats,
            repeatBudget: repeatNewBudget.flatMap(TimeWindow.seconds) ?? config.repeatNewBudget, known: known)
        plan.environment = try commandEnvironment(plan)
        return plan
    }

    /// The ledger's timings for a shard's plan (the team server's when there is one), with the
    /// tests quarantined as skipped left out.
    private func shardTimings(
        _ history: RecordHistory, skipped: [String], _ metadata: RunMetadata, _ config: ProjectConfiguration
    ) throws -> ShardTimings {
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

    /// This process's environment, with what the tests and the runner's module read.
    private func commandEnvironment(_ plan: RecordPlan) throws -> [String: String] {
        // The library in the tests only journals; this process stores the journals after the suite.
        var recorded = LedgerEnvironment.forRecordedTests(
            run: plan.runID, databasePath: store.filePath, metadata: plan.metadata)
        switch plan.command.runner {
        case .swiftTest: break
        case .xcodebuild: recorded.merge(XcodebuildInvocation.testRunnerEnvironment(recorded)) { a, _ in a }
        case .module: recorded.merge(try moduleEnvironment(plan)) { _, new in new }
        }
        return ProcessInfo.processInfo.environment.merging(recorded) { _, recorded in recorded }
    }

    /// Any other command retries, shards and repeats new tests in its own process, if at all:
    /// Bacon's output module reads these variables (a count of 0 too, so that --retries 0 wins
    /// over an inherited variable).
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

    /// Runs the command, its output passed through and XCTest's console read as it goes.
    func runCommand(_ plan: RecordPlan, console: ConsoleCollector) throws -> Int32 {
        if plan.runsNothing { return 0 }
        return try ChildProcess(
            arguments: plan.quarantine.arguments(
                of: plan.command, selecting: plan.share?.arguments ?? plan.selected?.arguments ?? []),
            environment: plan.environment
        )
        .run(onStart: console.started, onLine: console.consume)
    }
}
