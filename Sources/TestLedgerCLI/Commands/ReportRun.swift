import ArgumentParser
import Foundation
import LedgerCore
import LedgerStore

extension TestLedgerCommand.Report {
    /// `testledger report run`: what each failure of a run means.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Classify a run's failures: new, failed before, failing on the base branch too, known flaky, "
                + "quarantined; and what the run fixed.")

        @Argument(help: "The run (default: the newest).")
        var runID: String?
        @Option(
            help: """
                The base branch the failures are judged against; when it has no runs, the project's runs \
                just before (as many as the flaky window).
                """)
        var base = "main"
        @OptionGroup var project: ProjectOption
        @OptionGroup var owners: OwnerOptions

        @OptionGroup var reporting: ReportOptions

        func run() throws {
            let (config, database) = try reporting.open()
            var report = try Self.report(database, run: runID, project: project.name, base: base, config: config)
            if let owner = owners.owner {
                report = report.only(
                    owner: owner, owners: try CheckoutOwnership.owners(of: report.project, config: config, in: database)
                )
            }
            try reporting.print(report, table: RunReportRendering.table) {
                RunReportRendering.markdown($0, dashboard: LedgerEnvironment().serverURL)
            }
            let job = GitHubJob(environment: ProcessInfo.processInfo.environment)
            guard job.isActions else { return }
            // Beside JSON or Markdown, which may go to a file, the runner reads them on standard error.
            let lines = GitHubFeedback.annotations(report, job: job).lines
            if reporting.output.format == .table {
                lines.forEach { print($0) }
            } else {
                FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
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
