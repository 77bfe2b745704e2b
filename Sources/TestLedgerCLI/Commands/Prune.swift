import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

extension TestLedgerCommand {
    /// `testledger prune --older-than 180d`: retention.
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune", abstract: "Delete runs older than a time, and everything recorded in them.",
            discussion: """
                Runs go in bounded batches, each its own transaction, so that other writers are never \
                held up for long. Results of tests in quarantine are kept, with the runs that hold them: \
                releasing a test is judged on its history.
                """)

        @Option(name: .customLong("older-than"), help: "How old a run must be to go: 180d, 26w, or a date.")
        var olderThan: String
        @Option(help: "Only this project's runs (default: every project's).")
        var project: String?

        @OptionGroup var store: StoreOptions

        func run() throws {
            let cutoff: Double
            do {
                cutoff = try TimeWindow.start(olderThan)
            } catch let error as LedgerInputError {
                throw error.from(source: "--older-than")
            }
            let database = try store.open()
            let done = PruneProgress()
            var display: TerminalProgress?
            let summary = try database.prune(before: cutoff, project: project) { runs, total in
                done.update(runs)
                if display == nil {
                    display = TerminalProgress.start(ProgressLine(label: "prune", total: total, unit: .items("runs"))) {
                        done.runs
                    }
                }
            }
            display?.finish()
            var line =
                "pruned \(summary.runs) run(s) and \(summary.results) result(s) that started before "
                + iso8601(cutoff)
            if summary.keptRuns > 0 { line += "; kept \(summary.keptRuns) run(s) for quarantined tests' history" }
            print(line)
        }
    }
}

/// The runs `prune` has done, read by the progress line from another thread.
final class PruneProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0

    var runs: Int { lock.withLock { done } }

    func update(_ runs: Int) { lock.withLock { done = runs } }
}
