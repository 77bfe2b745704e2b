import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report pyramid`: the balance of unit, integration and UI tests.
    struct Pyramid: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the test pyramid: tests, time and failures per layer, and the verdict.")

        @Option(name: .customLong("run"), help: "The run to report on (default: the newest).")
        var runID: String?
        @Option(help: "Every test seen since then instead (14d, 12h, 2026-11-01).")
        var since: String?
        @Option(help: "The project (default: the newest run's).")
        var project: String?

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let config = try ProjectConfiguration.load()
            let report = try store.open().pyramidReport(
                project: project, run: runID, since: try since.map { try TimeWindow.start($0) },
                classifier: LayerClassifier(rules: config.layers))
            switch output.format {
            case .json: print(try OutputOptions.json(report))
            case .table: print(PyramidRendering.table(report))
            case .markdown: print(PyramidRendering.markdown(report))
            }
        }
    }
}
