import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerRecording

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
                times until it passes: for `swift test` and `xcodebuild test` only they (xcodebuild \
                test-without-building -only-testing: each), as the next attempts of the same run; any other command gets \
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

        @Option(
            help: ArgumentHelp(
                "Which failed tests --retries runs again: all, or known-flaky (only tests the ledger already "
                    + "calls flaky: a new failure is never retried and stays red). known-flaky is for swift test.",
                valueName: "tests"))
        var retryOnly: RetryScope = .all

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
                "Run only the test targets the change since the base branch can break, and store the others' "
                    + "tests as skipped (not-affected) with the run that vouches for them (as `testledger select`): "
                    + "swift test, or xcodebuild test of a package's scheme; any other command runs everything."))
        var select = false

        @Flag(help: "With --select: run every test, and store what selection would have skipped.")
        var observe = false

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
            if observe, !select { throw ValidationError("--observe goes with --select") }
            if select, shard != nil {
                throw ValidationError("--select and --shard choose tests each their own way: use one of them")
            }
            if let shard, ShardPlanner.parse(shard) == nil {
                throw ValidationError("--shard takes I/N, 1 ≤ I ≤ N: 2/4 runs the second of four shards")
            }
        }

        func run() throws {
            var options = RecordOptions(command: command)
            (options.resultFiles, options.base, options.retries, options.retryLimit) = (
                resultFiles, base, retries, retryLimit
            )
            (options.retryOnly, options.failOnRetried, options.repeatNew) = (retryOnly, failOnRetried, repeatNew)
            options.repeatNewBudget = repeatNewBudget.flatMap(TimeWindow.seconds)
            (options.shard, options.select, options.observe) = (shard, select, observe)
            (options.githubComment, options.checkRun, options.otlpEndpoint) = (githubComment, checkRun, otlpEndpoint)
            (options.networkTimeout, options.strict) = (networkTimeout, strict)
            let config = try ProjectConfiguration.load()
            let session = RecordSession(
                options: options, config: config,
                metadata: runInfo.metadata(config: config, directory: TestCommand.packagePath(of: command)),
                ledgerFile: store.filePath, openLedger: store.openFile, openQuarantine: store.open)
            let status: Int32
            do {
                status = try session.run()
            } catch let error as RecordUsageError {
                throw ValidationError(error.description)
            }
            if status != 0 { throw ExitCode(status) }
        }
    }
}

extension RetryScope: ExpressibleByArgument {}
