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

        @Option(
            help:
                "How many of the newest runs that selected or observed to read (default: .testledger.yml's window, else 30)."
        )
        var runs: Int?
        @OptionGroup var project: ProjectOption
        @OptionGroup var reporting: ReportOptions

        func run() throws {
            let (config, database) = try reporting.open()
            guard let name = try project.resolved(in: database) else {
                return try reporting.print(
                    SelectionReport([]), table: SelectionRendering.table, markdown: SelectionRendering.markdown)
            }
            let report = try database.selectionReport(project: name, runs: runs ?? config.reportWindow)
            try reporting.print(report, table: SelectionRendering.table, markdown: SelectionRendering.markdown)
        }
    }
}
