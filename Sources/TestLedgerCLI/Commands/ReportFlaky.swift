import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report flaky`: flaky tests and predicates, with their evidence.
    struct Flaky: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rank flaky tests and retry-based predicates over recent runs.")

        @OptionGroup var window: WindowOptions
        @OptionGroup var owners: OwnerOptions
        @Flag(help: "Exit 1 when any test is flaky: a CI gate.")
        var failOnFlaky = false

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let config = try ProjectConfiguration.load()
            let database = try store.open()
            let since = try window.start()
            let flaky = try database.withCulprits(
                try database.flakyReport(
                    project: window.project, runs: window.count(config), since: since, thresholds: config.flaky,
                    now: Date().timeIntervalSince1970),
                project: window.project, runs: window.count(config), since: since)
            var report = flaky
            if let project = try window.project ?? database.latestProject() {
                let testOwners = try CheckoutOwnership.owners(of: project, config: config, in: database)
                report = flaky.owned(by: testOwners)
                if let owner = owners.owner { report = report.only(owner: owner, owners: testOwners) }
            }
            switch output.format {
            case .json: print(try OutputOptions.json(report))
            case .table: print(FlakyRendering.table(report))
            case .markdown: print(FlakyRendering.markdown(report))
            }
            if failOnFlaky, !report.flaky.isEmpty { throw ExitCode(1) }
        }
    }
}
