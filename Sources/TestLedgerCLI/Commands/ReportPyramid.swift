import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report pyramid`: the balance of unit, integration and UI tests.
    struct Pyramid: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pyramid",
            abstract: "Show the test pyramid: tests, time and failures per layer, and the verdict.")

        @Option(name: .customLong("run"), help: "The run to report on (default: the newest).")
        var runID: String?
        @Option(help: "Every test seen since then instead (14d, 12h, 2026-11-01).")
        var since: String?
        @OptionGroup var project: ProjectOption

        @OptionGroup var reporting: ReportOptions

        func run() throws {
            let (config, database) = try reporting.open()
            let report = try database.pyramidReport(
                project: project.name, run: runID, since: try since.map { try TimeWindow.start($0) },
                classifier: LayerClassifier(rules: config.layers))
            try reporting.print(report, table: PyramidRendering.table, markdown: PyramidRendering.markdown)
        }
    }
}
