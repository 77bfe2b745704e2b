import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerImport
import LedgerRecording
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

        @OptionGroup var store: StoreOptions
        @Option(
            help: "table, json, markdown (for CI job summaries) or ctrf (the Common Test Report Format's JSON).")
        var format: Format = .table

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json, markdown, ctrf
        }

        func run() throws {
            let config = try ProjectConfiguration.load()
            let database = try store.openForReading()
            var report = try database.runReport(run: runID, project: project.name, base: base, config: config)
            if let owner = owners.owner {
                report = report.only(
                    owner: owner, owners: try CheckoutOwnership.owners(of: report.project, config: config, in: database)
                )
            }
            switch format {
            case .table: print(RunReportRendering.table(report))
            case .json: print(try OutputOptions.json(report))
            case .markdown: print(RunReportRendering.markdown(report, dashboard: LedgerEnvironment().serverURL))
            case .ctrf: print(try OutputOptions.json(try Self.ctrf(report, in: database)))
            }
            let job = GitHubJob(environment: ProcessInfo.processInfo.environment)
            guard job.isActions else { return }
            // Beside JSON or Markdown, which may go to a file, the runner reads them on standard error.
            let lines = GitHubFeedback.annotations(report, job: job).lines
            if format == .table {
                lines.forEach { print($0) }
            } else {
                FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
            }
        }

        /// The run as a CTRF report, with the verdicts of `report`.
        static func ctrf(_ report: RunReport, in database: any ResultStore) throws -> CTRFDocument {
            let listing = try database.run(id: report.run)
            let start = try database.windowRun(id: report.run)?.startedAt ?? 0
            return CTRFDocument(
                report, attempts: try database.attempts(run: report.run), source: listing?.source ?? "testledger",
                start: start)
        }
    }
}
