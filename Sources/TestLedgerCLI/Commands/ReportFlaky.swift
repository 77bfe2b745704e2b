import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report flaky`: flaky tests and predicates, with their evidence.
    struct Flaky: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rank flaky tests and retry-based predicates over recent runs.")

        @Option(help: "How many recent runs make the window (default 30).")
        var runs: Int?
        @Option(help: "Only runs since then (14d, 12h, 2026-11-01).")
        var since: String?
        @Option(help: "The project (default: the newest run's).")
        var project: String?
        @Flag(help: "Exit 1 when any test is flaky: a CI gate.")
        var failOnFlaky = false

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let config = try ProjectConfiguration.load()
            let report = try store.open().flakyReport(
                project: project, runs: runs ?? config.window ?? 30, since: try since.map { try TimeWindow.start($0) },
                thresholds: config.flaky, now: Date().timeIntervalSince1970)
            switch output.format {
            case .json: print(try OutputOptions.json(report))
            case .table: print(FlakyRendering.table(report))
            case .markdown: print(FlakyRendering.markdown(report))
            }
            if failOnFlaky, !report.flaky.isEmpty { throw ExitCode(1) }
        }
    }
}
