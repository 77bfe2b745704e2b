import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore

extension TestLedgerCommand {
    /// `testledger verify TEST… -- swift test`: proves a flaky test's fix with as many runs as its
    /// failure rate demands, or (`--reproduce`) shows its failure can be seen at all.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify", abstract: "Prove a flaky test fixed with as many runs as its failure rate demands.",
            usage: "testledger verify [<options>] <test> ... -- <command> ...",
            discussion: """
                The failure rate p is the test's share of failing attempts over the ledger's window \
                (--rate gives it). N = ⌈ln(1 − confidence) / ln(1 − p)⌉ passing runs in a row make \
                a test still failing at p pass them at most 1 − confidence of the time: 59 runs for \
                p = 5 % at 95 %. Only the named tests run, the first run building and the rest \
                --skip-build; the runs stop at the first failure. A test the ledger shows failing only \
                beside other tests (every failing attempt had company, every retry alone passed) runs \
                beside the tests that ran with it when it failed, side by side as the runner \
                schedules them, unless --alone. Every run is an attempt of one run \
                of kind verification, kept in each test's history and in `show`, left out of the \
                reports. Verdicts: fixed, still-flaky, inconclusive (the limits allowed fewer runs \
                than needed); with --reproduce, which runs until the test fails (at most ⌈3 / p⌉ \
                runs), reproduced or not-reproduced. Exits 0 for fixed or reproduced, 10 for \
                still-flaky or not-reproduced, 11 for inconclusive; an error exits 1.

                --isolate (swift test) runs the test --runs times alone, then --runs times with \
                another test (--beside, else the one the culprit report suspects: side by side, or \
                before it for a preceding test), a process each run, and compares the two with \
                Fisher's test. Verdicts: needs-neighbour (exit 0), fails-alone or not-reproduced \
                (10), inconclusive (11).
                """)

        @Argument(help: "The test id, e.g. FeedTests.FeedTests/testRefresh.")
        var test: String
        @Option(help: "The chance wanted of catching a test still failing at its rate (0.5 to 0.9999).")
        var confidence = 0.95
        @Option(help: "The failure rate to rule out, 0.0001 to 1 (default: the ledger's, over its window).")
        var rate: Double?
        @Option(help: "The most runs.")
        var maxRuns = 200
        @Option(help: "The most time the runs may take (90s, 10m, 1h), building aside.")
        var budget: String?
        @Flag(help: "Run until the test fails, at most ⌈3 / p⌉ runs: on the code before a fix.")
        var reproduce = false
        @Option(help: "Busy threads run beside the tests: contention makes a timing failure likelier to show.")
        var stress = 0
        @Flag(help: "Run the test alone, then with the test suspected of making it fail, and compare.")
        var isolate = false
        @Flag(help: "Run the test alone even where the ledger shows it failing only beside other tests.")
        var alone = false
        @Option(help: "With --isolate: the test to run it with (default: the culprit report's suspect).")
        var beside: String?
        @Option(help: "With --isolate: the runs alone, and again with the neighbour.")
        var runs = 20
        @Option(help: "Also write the JSON report to this file.")
        var jsonFile: String?
        @Flag(help: "Take a test found fixed out of quarantine, the verification its evidence.")
        var release = false
        @OptionGroup var runInfo: RunOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                "More tests, then -- and the test command: swift test, xcodebuild test, or Bacon with the testledger module.",
                valueName: "test"))
        var rest: [String] = []

        /// The tests verified together: the first and any named before `--`.
        var tests: [String] { [test] + (rest.firstIndex(of: "--").map { Array(rest[..<$0]) } ?? rest) }
        /// The command after `--`.
        var command: [String] { rest.firstIndex(of: "--").map { Array(rest[($0 + 1)...]) } ?? [] }

        func validate() throws {
            if let option = tests.first(where: { $0.hasPrefix("-") }) {
                throw ValidationError("unknown option \(option): see testledger verify --help")
            }
            guard !command.isEmpty else {
                throw ValidationError("give the test command after --: testledger verify TEST -- swift test")
            }
            switch TestCommand(command, outputFolder: URL(fileURLWithPath: "/")) {
            case .swiftTest: break
            case .xcodebuild(let xcodebuild):
                if let option = xcodebuild.original.first(where: { word in
                    XcodebuildVerification.repeatOptions.contains { word.hasPrefix($0) }
                }) {
                    throw ValidationError("verify chooses the tests and their iterations itself: leave out \(option)")
                }
            case .module:
                break
            }
            if let rate, !VerificationPlan.isValid(failureRate: rate) {
                throw ValidationError("--rate is a failure rate from 0.0001 to 1 (0.05 for one failure in 20)")
            }
            guard VerificationPlan.isValid(confidence: confidence) else {
                throw ValidationError("--confidence is from 0.5 to 0.9999 (0.95 for 95 %)")
            }
            if release, reproduce {
                throw ValidationError("--release frees a test found fixed; --reproduce looks for its failure: pass one")
            }
            try validateIsolation()
            guard (0...256).contains(stress) else { throw ValidationError("--stress is a count of threads, 0 to 256") }
            guard maxRuns > 0 else { throw ValidationError("--max-runs is a count, 1 or more") }
            if let budget, TimeWindow.seconds(budget) == nil {
                throw ValidationError("--budget takes a duration: 90s, 10m, 1h")
            }
        }

        func run() throws {
            let config = try ProjectConfiguration.load()
            let metadata = runInfo.metadata(config: config)
            let database = try store.openFile()
            if isolate { return try runIsolation(metadata: metadata, config: config, in: database) }
            let measured = try tests.map { try failureRate(of: $0, metadata: metadata, config: config, in: database) }
            let plans = measured.map { measured in
                reproduce
                    ? Self.reproducing(measured.rate, confidence: confidence, maxRuns: maxRuns)
                    : VerificationPlan(
                        failureRate: measured.rate, confidence: confidence, maxRuns: maxRuns,
                        budget: budget.flatMap(TimeWindow.seconds), secondsPerRun: measured.seconds)
            }
            let runID = UUID().uuidString.lowercased()
            let folder = FileManager.default.temporaryDirectory.appending(path: "testledger-verify-\(runID)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let started = Date().timeIntervalSince1970
            let testCommand = TestCommand(command, outputFolder: folder)
            var start = metadata.runStart(at: started, source: testCommand.source)
            start.kind = .verification
            try database.ingest { try $0.consume(LedgerRecord(run: runID, event: .runStart(start))) }
            if stress > 0 { printError("testledger: verify: \(stress) busy threads run beside the tests") }
            let runBeside = besideConditions(measured)
            let busy = BusyThreads(count: stress)
            defer { busy.stop() }
            let outcome: VerificationOutcome
            do {
                outcome = try runTests(
                    testCommand, runs: plans.map(\.runsAllowed).max() ?? 1,
                    runBefore: Set(measured.flatMap(\.conditions.runsBefore)).subtracting(tests).sorted(),
                    runBeside: runBeside,
                    deadline: budget.flatMap(TimeWindow.seconds).map { started + $0 },
                    run: runID, metadata: metadata, folder: folder, in: database)
            } catch let error as RecordUsageError {
                throw ValidationError(error.description)
            }
            let failed = outcome.passes.values.contains { $0.contains(false) }
            let end = LedgerEvent.RunEnd(at: Date().timeIntervalSince1970, outcome: failed ? .failed : .passed)
            try database.ingest { try $0.consume(LedgerRecord(run: runID, event: .runEnd(end))) }
            for problem in outcome.problems { printError("testledger: \(problem)") }
            let reports = try zip(measured, plans).map { measured, plan in
                try report(
                    measured, plan: plan, passes: outcome.passes[measured.test] ?? [], run: runID,
                    seconds: Date().timeIntervalSince1970 - started, in: database)
            }
            try print(reports)
            try releaseFixed(reports, run: runID, metadata: metadata)
            let status = reports.map { Self.exitStatus($0.verdict) }.max() ?? 0
            if status != 0 { throw ExitCode(status) }
        }

        /// The tests to run beside the verified ones, said on standard error: those that ran with
        /// a test that fails only beside others, unless `--alone`, which is warned about.
        private func besideConditions(_ measured: [Measured]) -> [String] {
            var beside: [String] = []
            for measured in measured where !measured.conditions.runsBeside.isEmpty {
                let names = measured.conditions.runsBeside
                if alone {
                    printError(
                        "testledger: verify: warning: \(measured.test) fails only beside other tests, and runs alone "
                            + "(--alone): it may pass whether it is fixed or not")
                } else {
                    printError(
                        "testledger: verify: \(measured.test) fails only beside other tests: it runs beside the "
                            + "\(names.count) that ran with it when it failed (\(names.prefix(3).joined(separator: ", "))"
                            + (names.count > 3 ? ", …" : "") + "); --alone runs it alone")
                    beside += names
                }
            }
            return Array(Set(beside).subtracting(tests)).sorted()
        }

        private func validateIsolation() throws {
            guard isolate else {
                if beside != nil || runs != 20 { throw ValidationError("--beside and --runs go with --isolate") }
                return
            }
            if reproduce || release {
                throw ValidationError("--isolate stands alone: leave out --reproduce and --release")
            }
            guard tests.count == 1 else { throw ValidationError("--isolate takes one test") }
            guard (2...1000).contains(runs) else { throw ValidationError("--runs is a count, 2 to 1000") }
            guard case .swiftTest = TestCommand(command, outputFolder: URL(fileURLWithPath: "/")) else {
                throw ValidationError("verify --isolate runs swift test: give it after --")
            }
        }

        /// Runs the tests as the runner allows: `swift test` a process a run; `xcodebuild`, and a
        /// runner's module (Bacon's), one process for every run.
        private func runTests(
            _ testCommand: TestCommand, runs: Int, runBefore: [String], runBeside: [String], deadline: Double?,
            run: String,
            metadata: RunMetadata, folder: URL, in database: LedgerDatabase
        ) throws -> VerificationOutcome {
            let recorded = LedgerEnvironment.forRecordedTests(
                run: run, databasePath: store.filePath, metadata: metadata)
            var environment = ProcessInfo.processInfo.environment.merging(recorded) { _, recorded in recorded }
            switch testCommand {
            case .swiftTest(let invocation):
                let verification = SwiftTestVerification(
                    invocation: invocation, tests: tests, runBefore: runBefore, runBeside: runBeside,
                    processes: SwiftTestProcesses(
                        run: run, metadata: metadata, environment: environment, databasePath: store.filePath),
                    outputFolder: folder)
                return try verification.verify(runs: runs, deadline: deadline, in: database)
            case .xcodebuild(let invocation):
                environment.merge(XcodebuildInvocation.testRunnerEnvironment(recorded)) { _, recorded in recorded }
                let verification = XcodebuildVerification(
                    invocation: invocation, tests: tests, runBefore: runBefore + runBeside, run: run,
                    metadata: metadata)
                return try verification.verify(
                    runs: runs, environment: environment, databasePath: store.filePath, in: database)
            case .module(let command):
                let verification = ModuleVerification(
                    command: command, tests: tests, runBefore: runBefore + runBeside, run: run)
                return try verification.verify(
                    runs: runs, environment: environment, folder: folder, databasePath: store.filePath, in: database)
            }
        }
    }
}
