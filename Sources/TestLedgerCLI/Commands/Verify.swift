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
                p = 5 % at 95 %. N clean runs show the test now fails less than 1 − (1 − confidence)^(1/N) of the \
                time, said with the verdict; --target-rate R sizes N to show it below R instead of below p \
                (R = 0.01: 299 runs). A test that failed every run is broken, not flaky: it is verified \
                against --target-rate, else 5 %, never by one passing run. Only the named tests run, the first run building and the rest \
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
        @Option(
            help: "Show the test fails less often than this rate (0.01: 299 runs at 95 %) instead of less than before.")
        var targetRate: Double?
        @Option(help: "The most runs (default: 200, or with --target-rate the runs it needs).")
        var maxRuns: Int?
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
            let xcodebuild = TestCommand(command, outputFolder: URL(fileURLWithPath: "/")).xcodebuild
            if let option = xcodebuild?.original.first(where: { word in
                XcodebuildVerification.repeatOptions.contains { word.hasPrefix($0) }
            }) {
                throw ValidationError("verify chooses the tests and their iterations itself: leave out \(option)")
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
            guard maxRuns ?? 1 > 0 else { throw ValidationError("--max-runs is a count, 1 or more") }
            try validateTargetRate()
            if let budget, TimeWindow.seconds(budget) == nil {
                throw ValidationError("--budget takes a duration: 90s, 10m, 1h")
            }
        }

        func run() throws {
            let reports = output.reserveStandardOutput()
            let config = try ProjectConfiguration.load()
            let session = VerificationSession(
                command: command, config: config,
                metadata: runInfo.metadata(config: config, directory: TestCommand.packagePath(of: command)),
                ledgerFile: store.filePath, database: try store.openFile())
            do {
                if isolate {
                    let report = try session.isolate(test, beside: beside, runs: runs)
                    try print(report, to: reports, text: VerificationRendering.text)
                    if report.verdict.exitStatus != 0 { throw ExitCode(report.verdict.exitStatus) }
                    return
                }
                var options = VerificationOptions()
                (options.confidence, options.rate, options.targetRate) = (confidence, rate, targetRate)
                options.maxRuns = maxRuns ?? (targetRate == nil ? 200 : .max)
                (options.budget, options.reproduce) = (budget.flatMap(TimeWindow.seconds), reproduce)
                (options.stress, options.alone) = (stress, alone)
                let (verified, run) = try session.verify(tests, options: options)
                if verified.count == 1 {
                    try print(verified[0], to: reports, text: VerificationRendering.text)
                } else {
                    try print(verified, to: reports) { $0.map(VerificationRendering.text).joined(separator: "\n\n") }
                }
                try releaseFixed(verified, run: run, metadata: session.metadata)
                try recordFixes(verified, run: run, metadata: session.metadata, config: config)
                let status = verified.map(\.verdict.exitStatus).max() ?? 0
                if status != 0 { throw ExitCode(status) }
            } catch let error as RecordUsageError {
                throw ValidationError(error.description)
            }
        }

        /// Prints `report` as `--format` asks, and writes its JSON to `--json-file` when given.
        private func print<Report: Encodable>(
            _ report: Report, to standardOutput: FileHandle, text: (Report) -> String
        ) throws {
            let json = try OutputOptions.json(report)
            if let jsonFile { try Data(json.utf8).write(to: URL(fileURLWithPath: jsonFile), options: .atomic) }
            fflush(nil)
            standardOutput.write(Data(((output.format == .json ? json : text(report)) + "\n").utf8))
        }

        private func validateTargetRate() throws {
            guard let targetRate else { return }
            guard VerificationPlan.isValid(failureRate: targetRate), targetRate < 1 else {
                throw ValidationError("--target-rate is a failure rate from 0.0001 to below 1 (0.01 for one in 100)")
            }
            if reproduce || isolate {
                throw ValidationError(
                    "--target-rate sizes the runs that prove a fix: leave out --reproduce and --isolate")
            }
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
            guard TestCommand(command, outputFolder: URL(fileURLWithPath: "/")).swiftTest != nil else {
                throw ValidationError("verify --isolate runs swift test: give it after --")
            }
        }
    }
}
