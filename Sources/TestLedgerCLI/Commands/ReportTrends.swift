import ArgumentParser
import Foundation
import LedgerCore
import LedgerStore

extension TestLedgerCommand.Report {
    /// `testledger report trends`: is the suite getting better or worse, period by period.
    struct Trends: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trends",
            abstract: "Show how the suite changed, day by day, week by week or run by run.",
            discussion: """
                Per period, over the runs of the default branch (.testledger.yml's fixLanding.branch, \
                else origin/HEAD, else main; every run when none names it) unless --branch: the runs and the share that failed; \
                the flaky tests report flaky would have named at the period's end, judged over the \
                window of runs before it, with those newly flaky and those fixed; the tests added and \
                removed; the suite's wall time (median and p95 of its runs); the CI time lost to \
                flaky tests, counted as report cost counts it; and the pyramid's shares. Each series \
                is drawn as a sparkline with its first and last value and the change, and the periods \
                where something changed most are named.
                """)

        @Option(help: "The periods: day, week or run.")
        var by: TrendsReport.Grouping = .week
        @Option(help: "Only runs since then (90d, 12w, 2026-09-01).")
        var since = "90d"
        @Option(help: "The branch whose runs are read (default: the default branch).")
        var branch: String?
        @Option(
            help: "The runs each period's flaky judgement looks back over (default: .testledger.yml's window, else 30)."
        )
        var window: Int?
        @OptionGroup var project: ProjectOption

        @OptionGroup var reporting: ReportOptions

        func validate() throws {
            if let window, window < 2 { throw ValidationError("--window is a count of runs, 2 or more") }
        }

        func run() throws {
            let (config, database) = try reporting.open()
            let branch = self.branch ?? config.defaultBranch(in: FileManager.default.currentDirectoryPath)
            let report = try database.trendsReport(
                project: project.name, branch: branch, orEveryBranch: self.branch == nil,
                since: try TimeWindow.start(since), grouping: by,
                window: window ?? config.reportWindow, thresholds: config.flaky,
                classifier: LayerClassifier(rules: config.layers))
            try reporting.print(report, table: TrendsRendering.text) { "```\n\(TrendsRendering.text($0))\n```" }
        }
    }
}

extension TrendsReport.Grouping: ExpressibleByArgument {}
