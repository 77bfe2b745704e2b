import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording

extension TestLedgerCommand.Report {
    /// `testledger report flaky`: flaky tests and predicates, with their evidence.
    struct Flaky: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "flaky", abstract: "Rank flaky tests and retry-based predicates over recent runs.")

        @OptionGroup var window: WindowOptions
        @OptionGroup var owners: OwnerOptions
        @Flag(help: "Exit 1 when any test is flaky: a CI gate.")
        var failOnFlaky = false

        @OptionGroup var reporting: ReportOptions

        func run() throws {
            let (config, database) = try reporting.open()
            let since = try window.start()
            let flaky = try database.withCulprits(
                try database.flakyReport(
                    project: window.project.name, runs: window.count(config), since: since, thresholds: config.flaky,
                    now: Date().timeIntervalSince1970),
                project: window.project.name, runs: window.count(config), since: since)
            var report = flaky
            if let project = try window.project.resolved(in: database) {
                report = owners.scope(
                    flaky, owners: try CheckoutOwnership.owners(of: project, config: config, in: database))
            }
            try reporting.print(report, table: FlakyRendering.table, markdown: FlakyRendering.markdown)
            if failOnFlaky, !report.flaky.isEmpty { throw ExitCode(1) }
        }
    }
}
