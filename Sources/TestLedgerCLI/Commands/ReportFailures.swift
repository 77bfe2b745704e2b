import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report failures`: failures grouped by cause.
    struct Failures: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Group the failures of recent runs by cause: messages that match once numbers, addresses, "
                + "ids and paths are set aside.")

        @OptionGroup var window: WindowOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let config = try ProjectConfiguration.load()
            let groups = try store.open().failureGroups(
                project: window.project, runs: window.count(config), since: try window.start())
            try output.print(groups) { FailureGroupRendering.table(groups) }
        }
    }
}
