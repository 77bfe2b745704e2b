import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report failures`: failures grouped by cause.
    struct Failures: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Group the failures of recent runs by cause: messages that match once numbers, addresses, "
                + "ids and paths are set aside.")

        @Option(help: "How many recent runs make the window (default 30).")
        var runs: Int?
        @Option(help: "Only runs since then (14d, 12h, 2026-11-01).")
        var since: String?
        @Option(help: "The project (default: the newest run's).")
        var project: String?

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let config = try ProjectConfiguration.load()
            let groups = try store.open().failureGroups(
                project: project, runs: runs ?? config.window ?? 30, since: try since.map { try TimeWindow.start($0) })
            try output.print(groups) { FailureGroupRendering.table(groups) }
        }
    }
}
