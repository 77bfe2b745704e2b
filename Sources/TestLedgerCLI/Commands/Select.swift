import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerPostgres
import LedgerRecording
import LedgerStore

extension TestLedgerCommand {
    /// `testledger select`: the test targets a change can break, and the others' vouching runs.
    struct Select: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "select", abstract: "Say which test targets the change since the base branch can break.",
            discussion: """
                A test target runs when a file of it, or of a target it depends on through any path (local \
                packages too, as `swift package describe` tells), differs from the merge base with the base \
                branch, uncommitted changes included. Every test runs when Package.swift or Package.resolved \
                changed, or a changed file belongs to no target and matches no select.ignore pattern of \
                .testledger.yml. Any other target is skipped only when a run of the base branch or of this \
                branch with the same hash (its files and its dependencies', Package.resolved, the toolchain, \
                the configuration) ran every test the runner listed for it, passed them all, and was not \
                interrupted. Tests new to the base, failed or flaky within the window, or matching \
                select.unskippable run all the same.

                The hashes cover the test command too (but the folders it builds and writes in): give it \
                after --, as the job runs it (default: swift test), so that they are the runs' own.
                For a runner that `testledger record --select` does not wrap:
                  swift test $(testledger select --format swift-test -- swift test -c release)

                --replay recomputes selection for the ledger's newest runs whose revisions the checkout \
                holds, oldest first, each vouched for by the replayed runs before it (the package graph \
                is the checkout's now; a revision's toolchain is not known): the failures it would have \
                left out (the goal is none) and the test time it would have saved, as `report selection`.
                """)

        @Option(help: "The base branch the change is measured from (default: $GITHUB_BASE_REF, else main).")
        var base: String?
        @Option(help: "list, json, swift-test (its --filter arguments) or xcodebuild (its -only-testing: arguments).")
        var format: SelectFormat = .list
        @Option(help: "The package's folder (default: the command's --package-path, else the working directory).")
        var packagePath: String?
        @Flag(help: "Replay selection over the ledger's runs: the failures it would have missed and the time saved.")
        var replay = false
        @Option(help: "With --replay: how many of the newest runs.")
        var runs = 300
        @OptionGroup var store: StoreOptions
        @OptionGroup var runInfo: RunOptions

        @Argument(parsing: .postTerminator, help: "The test command the job runs, after -- (default: swift test).")
        var command: [String] = []

        enum SelectFormat: String, ExpressibleByArgument, CaseIterable {
            case list, json
            case swiftTest = "swift-test"
            case xcodebuild
        }

        func validate() throws {
            if replay, format == .swiftTest || format == .xcodebuild {
                throw ValidationError("--replay reports: --format list or json")
            }
            if runs < 1 { throw ValidationError("--runs is a count, 1 or more") }
        }

        func run() throws {
            let config = try ProjectConfiguration.load()
            let metadata = runInfo.metadata(config: config)
            let base = self.base ?? GitHubJob(environment: ProcessInfo.processInfo.environment).baseBranch
            if replay { return try self.replay(base: base, metadata: metadata, config: config) }
            let plan: SelectionPlan
            do {
                let testCommand = TestCommand(
                    command.isEmpty ? ["swift", "test"] : command, outputFolder: FileManager.default.temporaryDirectory)
                plan = try SelectionPlan.planned(
                    packagePath: packagePath ?? testCommand.packagePath, base: base, command: testCommand,
                    metadata: metadata, config: config,
                    history: RecordHistory(database: try store.openForReading(), budget: NetworkBudget(seconds: 10)),
                    ledger: PostgresLocation.isURL(store.location) ? nil : store.location)
            } catch let problem as SelectionCheckout.Problem {
                throw ValidationError("\(problem)")
            }
            try print(plan, as: format)
        }

        private func replay(base: String, metadata: RunMetadata, config: ProjectConfiguration) throws {
            let report: SelectionReport
            do {
                report = try SelectionReplayHistory.report(
                    packagePath: packagePath ?? FileManager.default.currentDirectoryPath, base: base,
                    store: try store.openForReading(), project: metadata.project, runs: runs, config: config)
            } catch let problem as SelectionCheckout.Problem {
                throw ValidationError("\(problem)")
            }
            if format == .json { return Swift.print(try OutputOptions.json(report)) }
            Swift.print(SelectionRendering.table(report))
        }

        private func print(_ plan: SelectionPlan, as format: SelectFormat) throws {
            let selection = plan.selection
            switch format {
            case .list:
                Swift.print(plan.listing)
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                Swift.print(String(decoding: try encoder.encode(plan.output), as: UTF8.self))
            case .swiftTest, .xcodebuild:
                let runner: TestRunner = format == .swiftTest ? .swiftTest : .xcodebuild
                printError(plan.announcement)
                Swift.print(SkipArguments.substitutionLine(selection.commandArguments(for: runner)))
            }
        }
    }
}
