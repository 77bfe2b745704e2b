import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerImport
import LedgerStore

extension TestLedgerCommand {
    /// `testledger record -- COMMAND…`: runs a test command and stores its results.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record", abstract: "Run a test command, pass its output through, and store its results.",
            discussion: """
                For `swift test`, adds the flags that make SwiftPM write Swift Testing's event stream \
                and the xUnit files, and reads XCTest's console output when no xUnit file is written \
                (without --parallel). For `xcodebuild test`, adds -resultBundlePath (unless given) and \
                reads the bundle through xcresulttool, also after a failure or an interrupt; \
                TESTLEDGER_* reach the tests as TEST_RUNNER_*. For other commands, name what they \
                write with --junit. With --retries N, the tests that failed run again, each up to N more \
                times until it passes: for `swift test` only they, as the next attempts of the same run; for \
                `xcodebuild test` through Xcode's own -retry-tests-on-failure; any other command gets \
                TESTLEDGER_TEST_RETRIES=N, which Bacon's output module retries with in its process. Exits \
                with the command's own status, or 0 when every failed test passed on a retry.
                """)

        @Option(
            name: .customLong("junit"), help: "A results file (or folder of .xml files) the command writes; repeatable."
        )
        var resultFiles: [String] = []

        @Option(help: "The base branch failures are judged against (default: $GITHUB_BASE_REF, else main).")
        var base: String?

        @Option(
            help: ArgumentHelp(
                "Run each test that failed again, up to N more times, until it passes; any other command than "
                    + "swift test and xcodebuild test gets TESTLEDGER_TEST_RETRIES=N (default: "
                    + "$TESTLEDGER_TEST_RETRIES, else .testledger.yml's retries, else 0).",
                valueName: "N"))
        var retries: Int?

        @Option(
            help: ArgumentHelp(
                "Retry nothing when more tests than this failed (a broken build, most likely).", valueName: "tests"))
        var retryLimit = 20

        @Flag(help: "A test that passed only on a retry still fails the command.")
        var failOnRetried = false

        @Option(
            help: ArgumentHelp(
                "Run each new test (one the base branch never ran) that passed N more times after the suite; a "
                    + "failure in any of its runs fails the job (default: .testledger.yml's repeatNew, else 0).",
                valueName: "N"))
        var repeatNew: Int?

        @Option(
            help: ArgumentHelp(
                "The time the new tests' repeats may take (300s, 10m); those beyond it are named as unproven "
                    + "(default: .testledger.yml's repeatNewBudget, else no bound).",
                valueName: "duration"))
        var repeatNewBudget: String?

        @Option(
            help: ArgumentHelp(
                "Run only shard I of N (2/4) of `swift test`'s or `xcodebuild test`'s tests, as the runner lists them, "
                    + "planned from the ledger's timings of other revisions.",
                valueName: "I/N"))
        var shard: String?

        @Flag(
            help: ArgumentHelp(
                "On GitHub Actions, keep one comment on the pull request with what the failures mean "
                    + "(as `testledger github comment`)."))
        var githubComment = false

        @Flag(help: "On GitHub Actions, create a check run named TestLedger with the failures as annotations.")
        var checkRun = false

        @Option(
            help: ArgumentHelp(
                "Send the run to an OpenTelemetry collector as a trace (OTLP's JSON over HTTP), as `export otlp`.",
                valueName: "url"))
        var otlpEndpoint: String?

        @Option(
            help: ArgumentHelp(
                "The seconds all of the command's network calls (team server, code host, collector) may wait "
                    + "together; what they could not reach is skipped and said.",
                valueName: "seconds"))
        var networkTimeout: Double = 10

        @Flag(
            help: ArgumentHelp(
                "Fail the job when something TestLedger reaches for could not be reached (default: "
                    + ".testledger.yml's strict, else off: the job's status is the suite's own)."))
        var strict = false

        @OptionGroup var store: StoreOptions
        @OptionGroup var runInfo: RunOptions

        @Argument(parsing: .postTerminator, help: "The test command, after --.")
        var command: [String]

        func validate() throws {
            if command.isEmpty {
                throw ValidationError("Give the test command after --, e.g. testledger record -- swift test")
            }
            if let retries, retries < 0 { throw ValidationError("--retries is a count, 0 or more") }
            if retryLimit < 0 { throw ValidationError("--retry-limit is a count, 0 or more") }
            if let repeatNew, repeatNew < 0 { throw ValidationError("--repeat-new is a count, 0 or more") }
            if let repeatNewBudget, TimeWindow.seconds(repeatNewBudget) == nil {
                throw ValidationError("--repeat-new-budget is a duration: 300s, 10m or 1h")
            }
            if !(networkTimeout > 0) { throw ValidationError("--network-timeout is a number of seconds, more than 0") }
            if let otlpEndpoint, TraceExporter(address: otlpEndpoint, environment: [:]) == nil {
                throw ValidationError("--otlp-endpoint \(otlpEndpoint) is not an http(s) address")
            }
            if let shard, ShardPlanner.parse(shard) == nil {
                throw ValidationError("--shard takes I/N, 1 ≤ I ≤ N: 2/4 runs the second of four shards")
            }
        }

        func run() throws {
            let config = try ProjectConfiguration.load()
            let metadata = runInfo.metadata(config: config)
            let runID = LedgerEnvironment().run ?? UUID().uuidString.lowercased()
            let folder = FileManager.default.temporaryDirectory.appending(path: "testledger-record-\(runID)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }

            let network = NetworkBudget(seconds: networkTimeout)
            let retries = self.retries ?? LedgerEnvironment().testRetries ?? config.retries ?? 0
            let swiftTest = SwiftTestInvocation(command, outputFolder: folder)
            let xcodebuild = XcodebuildInvocation(command, outputFolder: folder, retries: retries)
            let started = Date().timeIntervalSince1970
            let source = swiftTest != nil ? "swift-test" : xcodebuild != nil ? "xcodebuild" : "record"
            let runStart = LedgerRecord(run: runID, event: .runStart(metadata.runStart(at: started, source: source)))
            // A ledger that cannot be written (a full disk, a read-only folder) does not stop the
            // tests: they run as they would without TestLedger, and the exit status says so after.
            var database: LedgerDatabase?
            var flakyBefore: Set<String> = []
            var quarantine = QuarantineEnforcement([], configuration: "")
            do {
                let opened = try store.openFile()
                flakyBefore = try Set(RecordSummary.flakyTests(opened, project: metadata.project, config: config))
                quarantine = QuarantineEnforcement(
                    try Quarantine.current(project: metadata.project, store: store, budget: network),
                    configuration: metadata.configuration ?? "")
                database = opened
            } catch {
                printError("testledger: \(error)\ntestledger: running the tests without recording them")
            }
            // The library in the tests only journals; this process stores the journals after the suite.
            var recorded = LedgerEnvironment.forRecordedTests(
                run: runID, databasePath: store.filePath, metadata: metadata)
            if xcodebuild != nil { recorded.merge(XcodebuildInvocation.testRunnerEnvironment(recorded)) { a, _ in a } }
            let history = RecordHistory(database: database, budget: network)
            let share = try shard.map {
                try RecordShard.planned(
                    $0, swiftTest: swiftTest, xcodebuild: xcodebuild, skipped: quarantine.skipped, history: history,
                    folder: folder, metadata, config)
            }
            if let share { printError(share.announcement) }
            let repeats = repeatNew ?? config.repeatNew ?? 0
            let budget = repeatNewBudget.flatMap(TimeWindow.seconds) ?? config.repeatNewBudget
            if repeats > 0, xcodebuild != nil {
                printError(
                    "testledger: --repeat-new does not repeat xcodebuild's tests; Xcode's -test-iterations N "
                        + "-run-tests-until-failure repeats a test plan")
            }
            // What the base branch ran, read before the command: new tests are the others.
            let known =
                repeats > 0 && database != nil && xcodebuild == nil
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
            // Any other command retries, shards and repeats new tests in its own process, if at all:
            // Bacon's output module reads the variables (a count of 0 too, so that --retries 0 wins
            // over an inherited variable).
            if swiftTest == nil, xcodebuild == nil {
                recorded["TESTLEDGER_TEST_RETRIES"] = String(retries)
                // The quarantine read above, within the deadline: the module does not ask again.
                let list = try QuarantineList.handToModule(
                    quarantine.entries, at: folder.appending(path: "quarantine.json"))
                recorded[list.name] = list.value
                if let share { recorded.merge(try share.moduleEnvironment(folder: folder)) { _, new in new } }
                if let known {
                    recorded.merge(
                        try ModuleRepeats.environment(known: known, repeats: repeats, budget: budget, folder: folder)
                    ) { _, new in new }
                }
                if retries > 0 || repeats > 0 || share != nil {
                    printError(
                        "testledger: the command gets TESTLEDGER_TEST_RETRIES=\(retries)"
                            + (share.map { ", TESTLEDGER_SHARD=\($0.index)/\($0.plan.shards.count)" } ?? "")
                            + (repeats > 0 ? ", TESTLEDGER_REPEAT_NEW=\(repeats)" : "")
                            + "; only a runner that reads them (Bacon's testledger module) acts on them")
                }
            }
            let childEnvironment = ProcessInfo.processInfo.environment.merging(recorded) { _, recorded in recorded }
            let console = ConsoleCollector()
            // A shard with no tests runs nothing (no `--filter` would run them all).
            let commandStatus =
                share.map { $0.isListedByTheRunner && $0.tests.isEmpty } == true
                ? 0
                : try ChildProcess(
                    arguments: quarantine.command(
                        command, swiftTest: swiftTest, xcodebuild: xcodebuild, selecting: share?.arguments ?? []),
                    environment: childEnvironment
                )
                .run { line in console.consume(line) }
            guard let database else { throw ExitCode(commandStatus != 0 ? commandStatus : 1) }

            var failures: [String] = []
            // The command's status, until retries account for its failures.
            var status = commandStatus
            let settled: (status: Int32, mutedFailures: [String])
            var retried: RetryOutcome?
            var repeated: NewTestRepeats.Outcome?
            var failedForRetries = false
            do {
                try database.ingest { sink in try sink.consume(runStart) }
                if let swiftTest {
                    // What the test processes journaled joins the run first.
                    let outputs = SwiftTestOutputs(
                        invocation: swiftTest, console: console.results, run: runID, metadata: metadata)
                    failures += try outputs.store(in: database, databasePath: store.filePath) {
                        swiftTest.listedTests()
                    }
                } else {
                    database.recoverPendingJournals(databasePath: store.filePath)
                }
                // A shard given no test ran nothing, and xcodebuild wrote no bundle.
                if let xcodebuild, share.map({ $0.isListedByTheRunner && $0.tests.isEmpty }) != true {
                    do {
                        try importBundle(xcodebuild, status: status, metadata: metadata, runID: runID, into: database)
                    } catch {
                        failures.append("\(error)")
                    }
                }
                for file in try inputs() {
                    do {
                        let input = try InputFile.open(file)
                        _ = try Ingestion.ingest(input, format: nil, metadata: metadata, runID: runID, into: database)
                    } catch {
                        failures.append("\(error)")
                    }
                }
                if let share {
                    let unrun = share.unrun(stored: try database.testsStored(run: runID))
                    if !unrun.isEmpty, !share.isListedByTheRunner {
                        printError(
                            "testledger: shard \(share.index)/\(share.plan.shards.count): \(unrun.count) test(s) the "
                                + "ledger knows did not run (removed, renamed, or not part of this command): "
                                + unrun.prefix(10).joined(separator: ", "))
                    } else if !unrun.isEmpty {
                        failures.append(
                            "shard \(share.index)/\(share.plan.shards.count): \(unrun.count) of its tests did not run: "
                                + unrun.prefix(10).joined(separator: ", "))
                    }
                }
                if let swiftTest, retries > 0, status != 0, status < 128 {
                    let outcome = try SwiftTestRetries(
                        invocation: swiftTest, retries: retries, limit: retryLimit, muted: quarantine.muted, run: runID,
                        metadata: metadata, environment: childEnvironment, outputFolder: folder,
                        databasePath: store.filePath
                    ).retry(in: database)
                    failures += outcome.problems
                    retried = outcome
                    if outcome.passesTheCommand, !failOnRetried, try database.failingTests(run: runID).isEmpty {
                        status = 0
                    }
                }
                if let swiftTest, let known, status < 128, retried?.interrupted != true {
                    let (outcome, problems) = try SwiftTestRetries(
                        invocation: swiftTest, retries: repeats, limit: 0, muted: [], run: runID, metadata: metadata,
                        environment: childEnvironment, outputFolder: folder, databasePath: store.filePath
                    ).repeatNew(known: known, base: baseBranch, budget: budget, in: database)
                    failures += problems
                    repeated = outcome
                } else if let known, swiftTest == nil, status < 128 {
                    repeated = try ModuleRepeats.outcome(
                        run: runID, known: known, base: baseBranch, repeats: repeats, budget: budget, in: database)
                }
                if status < 128 {
                    try database.ingest { sink in
                        let passed = status == 0 && repeated?.failsTheJob != true
                        let end = LedgerEvent.RunEnd(
                            at: Date().timeIntervalSince1970, outcome: passed ? .passed : .failed)
                        try sink.consume(LedgerRecord(run: runID, event: .runEnd(end)))
                    }
                }
                let stored = try database.afterRunsStored(
                    [runID], policy: .checkout(config, quarantine: quarantine.entries))
                settled = try quarantine.settle(status: status, run: runID, stored: stored, in: database)
                if failOnRetried { failedForRetries = try (database.run(id: runID)?.flaky ?? 0) > 0 }
                stored.printQuarantineChanges()
            } catch {
                // Storing failed part way (the disk filled up): what ran is the command's to say.
                for failure in failures + ["\(error)"] { printError("testledger: \(failure)") }
                throw ExitCode(commandStatus != 0 ? commandStatus : 1)
            }
            for failure in failures { printError("testledger: \(failure)") }
            print(
                try RecordSummary.text(
                    database, run: runID, project: metadata.project, config: config, flakyBefore: flakyBefore,
                    mutedFailures: settled.mutedFailures, forgiven: settled.status != status && !failedForRetries,
                    retries: retried, repeats: repeated, failedForRetries: failedForRetries))
            try explainFailures(
                run: runID, project: metadata.project, config: config, in: database, network: network,
                jobFailed: settled.status != 0 || failedForRetries || repeated?.failsTheJob == true
                    || !failures.isEmpty)
            exportTrace(run: runID, from: database, network: network)
            if settled.status != 0 { throw ExitCode(settled.status) }
            if failedForRetries || repeated?.failsTheJob == true { throw ExitCode(1) }
            if !failures.isEmpty { throw ExitCode(1) }
            let unreached = network.failures
            if strict || config.strict == true, !unreached.isEmpty {
                printError(
                    "testledger: --strict: the job fails, as \(unreached.count) network call(s) failed: "
                        + unreached.joined(separator: "; "))
                throw ExitCode(1)
            }
        }

        /// Sends the run to `--otlp-endpoint`; a collector that is down is said, never the job's failure.
        private func exportTrace(run: String, from database: any ResultStore, network: NetworkBudget) {
            guard
                let otlpEndpoint,
                let exporter = TraceExporter(address: otlpEndpoint, environment: ProcessInfo.processInfo.environment)
            else { return }
            do {
                let (request, _) = try database.traces(run: run)
                if let problem = exporter.send(request, budget: network) {
                    network.unreached("the trace was not sent: \(problem)")
                    printError("testledger: the trace was not sent: \(problem)")
                }
            } catch {
                printError("testledger: the trace could not be read from the ledger: \(error)")
            }
        }

        /// Stores what xcodebuild's result bundle holds, also when it failed or was interrupted.
        private func importBundle(
            _ xcodebuild: XcodebuildInvocation, status: Int32, metadata: RunMetadata, runID: String,
            into database: any ResultStore
        ) throws {
            let path = xcodebuild.resultBundle.path
            guard XCResultBundle.isBundle(path) else {
                throw LedgerInputError(
                    source: path, problem: "xcodebuild wrote no result bundle (it exited with \(status))",
                    fix: "check that the scheme builds and has tests")
            }
            _ = try Ingestion.ingest(
                XCResultBundle(path: path), metadata: metadata, runID: runID, interrupted: status >= 128,
                into: database)
        }

        /// Prints what each failure means and, on GitHub Actions, marks the failures on their lines,
        /// writes the report to the job's summary and, when asked, to the pull request and a check run.
        private func explainFailures(
            run: String, project: String, config: ProjectConfiguration, in database: any ResultStore,
            network: NetworkBudget, jobFailed: Bool
        ) throws {
            guard try database.windowRun(id: run) != nil else { return }
            let report = try Report.Run.report(
                database, run: run, project: project, base: baseBranch, config: config)
            if !report.failures.isEmpty || !report.fixed.isEmpty { print(RunReportRendering.table(report)) }
            let job = GitHubJob(environment: ProcessInfo.processInfo.environment)
            let dashboard = LedgerEnvironment().serverURL
            var untold: String?
            if job.isActions {
                let annotations = GitHubFeedback.annotations(report, job: job)
                annotations.lines.forEach { print($0) }
                untold = annotations.untold
            }
            if let path = job.value("GITHUB_STEP_SUMMARY") {
                let markdown =
                    RunReportRendering.markdown(report, dashboard: dashboard) + (untold.map { "\n\n_\($0)._" } ?? "")
                    + "\n"
                if let file = FileHandle(forWritingAtPath: path) {
                    file.seekToEndOfFile()
                    file.write(Data(markdown.utf8))
                    file.closeFile()
                } else {
                    try markdown.write(toFile: path, atomically: true, encoding: .utf8)
                }
            }
            var feedback = GitHubFeedback(job: job, dashboard: dashboard, jobFailed: jobFailed)
            feedback.budget = network
            if githubComment { feedback.comment(report) }
            if checkRun { feedback.checkRun(report) }
        }

        /// The branch failures and new tests are judged against.
        private var baseBranch: String {
            base ?? GitHubJob(environment: ProcessInfo.processInfo.environment).baseBranch
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
}

/// Collects XCTest console results from the two output threads.
final class ConsoleCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var parser = XCTestConsoleParser()

    func consume(_ line: Substring) {
        let now = Date().timeIntervalSince1970
        lock.withLock { parser.consume(line, now: now) }
    }

    var results: [XCTestConsoleParser.Result] { lock.withLock { parser.results } }
}
