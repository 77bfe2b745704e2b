import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording

extension TestLedgerCommand.Report {
    /// `testledger report cost`: the CI time flaky tests cost.
    struct Cost: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cost",
            abstract: "Sum the CI time the window's flaky tests cost, per test and per owner.",
            discussion: """
                A run that failed only because of flaky tests is lost whole, since the job runs again: \
                its seconds are shared among the flaky tests that failed it. In every other run, a \
                flaky test costs its failed attempts and the passing attempts that re-ran it after one. \
                Each second counts once; the total is the tests' sum.
                """)

        @OptionGroup var window: WindowOptions
        @OptionGroup var owners: OwnerOptions
        @OptionGroup var reporting: ReportOptions

        func run() throws {
            let (config, database) = try reporting.open()
            var report = try database.costReport(
                project: window.project.name, runs: window.count(config), since: try window.start(),
                thresholds: config.flaky, now: Date().timeIntervalSince1970)
            if let project = try window.project.resolved(in: database) {
                report = owners.scope(
                    report, owners: try CheckoutOwnership.owners(of: project, config: config, in: database))
            }
            try reporting.print(report, table: CostRendering.table, markdown: CostRendering.markdown)
        }
    }
}
