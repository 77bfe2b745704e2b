import ArgumentParser
import LedgerCore
import LedgerStore

extension TestLedgerCommand {
    /// `testledger runs`: the stored runs, newest first.
    struct Runs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "runs", abstract: "List stored runs, newest first.")

        @Option(help: "Only runs of this project.")
        var project: String?
        @Option(help: "How many runs to list.")
        var limit = 20

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let runs = try store.openForReading().runs(project: project, limit: limit)
            try output.print(runs) { Self.table(runs) }
        }

        static func table(_ runs: [RunListing]) -> TextTable {
            TextTable(
                headers: [
                    "run", "started", "project", "source", "revision", "branch", "tests", "passed", "failed",
                    "muted", "skipped", "flaky", "duration", "status",
                ],
                rows: runs.map { run in
                    // A runner that named only some tests: its count, then how many were named.
                    let tests = run.reported.map { "\($0.tests) (\(run.tests) named)" } ?? "\(run.tests)"
                    return [
                        run.id, run.startedAt, run.project,
                        run.purpose.map { "\(run.source) · \($0)" } ?? run.source,
                        String((run.revision ?? "–").prefix(10)),
                        run.branch ?? "–", tests, "\(run.passed)", "\(run.failed + run.crashed)",
                        "\(run.muted)", "\(run.skipped)", "\(run.flaky)", Figures.seconds(run.duration),
                        run.status.rawValue,
                    ]
                }, numeric: [6, 7, 8, 9, 10, 11, 12])
        }
    }
}
