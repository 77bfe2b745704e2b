import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report selection`: what selection left out, what it would have missed and saved.
    struct Selection: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "selection",
            abstract: "Per run that selected its tests (or observed, with --observe): missed failures and time saved.",
            discussion: """
                A run recorded with `record --select --observe` ran every test: the failures of the \
                targets selection would have left out are the failures it would have missed (the goal \
                is none; tests selection would have kept all the same are counted too), and their \
                time is what it would have saved. A run recorded with `record --select` left them out: \
                its saving is what their tests took in the vouching run.
                """)

        @Option(help: "How many of the newest runs that selected or observed to read.")
        var runs = 30
        @OptionGroup var project: ProjectOption
        @OptionGroup var reporting: ReportOptions

        func run() throws {
            let (_, database) = try reporting.open()
            guard let name = try project.resolved(in: database) else {
                return try reporting.print(SelectionReport([]), table: Self.table, markdown: Self.markdown)
            }
            let report = try database.selectionReport(project: name, runs: runs)
            try reporting.print(report, table: Self.table, markdown: Self.markdown)
        }

        static func table(_ report: SelectionReport) -> String {
            guard !report.runs.isEmpty else {
                return "no run selected its tests: record with --select (or --select --observe to measure first)"
            }
            let rows = report.runs.map { run in
                [
                    String(run.run.prefix(8)), run.revision.map { String($0.prefix(7)) } ?? "", run.mode.rawValue,
                    "\(run.skippedTargets.count) of \(run.targets)", "\(run.missedFailures.count)",
                    String(format: "%.1f of %.1f", run.savedSeconds, run.testSeconds),
                ]
            }
            let table = TextTable(
                headers: ["run", "revision", "mode", "targets left out", "missed failures", "seconds saved"],
                rows: rows, numeric: [4])
            return table.plain + "\n" + summary(report)
        }

        static func markdown(_ report: SelectionReport) -> String {
            var lines = ["### TestLedger: selection", "", TextTable.escapeMarkdown(summary(report))]
            let missed = report.runs.filter { !$0.missedFailures.isEmpty }
            for run in missed {
                lines.append(
                    "- run `\(run.run.prefix(8))`: " + run.missedFailures.map { "`\($0)`" }.joined(separator: ", "))
            }
            return lines.joined(separator: "\n")
        }

        static func summary(_ report: SelectionReport) -> String {
            "\(report.runs.count) run(s): \(report.missedFailures) failure(s) missed, "
                + String(
                    format: "%.1f s saved (%.0f %% of the test time)", report.savedSeconds, report.savedShare * 100)
        }
    }
}
