import ArgumentParser
import Foundation
import LedgerCore
import LedgerStore

extension TestLedgerCommand.Report {
    /// `testledger report run`: what each failure of a run means.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Classify a run's failures: new, failed before, failing on the base branch too, known flaky, "
                + "quarantined; and what the run fixed.")

        @Argument(help: "The run (default: the newest).")
        var runID: String?
        @Option(help: "The base branch the failures are judged against.")
        var base = "main"
        @Option(help: "The project (default: the newest run's).")
        var project: String?
        @OptionGroup var owners: OwnerOptions

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let config = try ProjectConfiguration.load()
            let database = try store.open()
            var report = try Self.report(database, run: runID, project: project, base: base, config: config)
            if let owner = owners.owner {
                report = report.only(
                    owner: owner, owners: try CheckoutOwnership.owners(of: report.project, config: config, in: database)
                )
            }
            switch output.format {
            case .json: print(try OutputOptions.json(report))
            case .table: print(RunReportRendering.table(report))
            case .markdown: print(RunReportRendering.markdown(report, dashboard: LedgerEnvironment().serverURL))
            }
        }

        static func report(
            _ database: any ResultStore, run: String?, project: String?, base: String, config: ProjectConfiguration
        ) throws -> RunReport {
            let report = try database.runReport(
                run: run, project: project, base: base, window: config.window ?? 30, thresholds: config.flaky,
                now: Date().timeIntervalSince1970)
            return report.owned(by: try CheckoutOwnership.owners(of: report.project, config: config, in: database))
        }
    }
}
