import ArgumentParser
import LedgerCore
import LedgerStore

extension TestLedgerCommand {
    /// `testledger runs`: the stored runs, newest first.
    struct Runs: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List stored runs, newest first.")

        @Option(help: "Only runs of this project.")
        var project: String?
        @Option(help: "How many runs to list.")
        var limit = 20

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let runs = try store.open().runs(project: project, limit: limit)
            try output.print(runs) { Self.table(runs) }
        }

        static func table(_ runs: [RunListing]) -> TextTable {
            TextTable(
                headers: [
                    "run", "started", "project", "source", "revision", "branch", "tests", "passed", "failed",
                    "muted", "skipped", "flaky", "duration", "status",
                ],
                rows: runs.map {
                    [
                        $0.id, $0.startedAt, $0.project, $0.source, String(($0.revision ?? "–").prefix(10)),
                        $0.branch ?? "–", "\($0.tests)", "\($0.passed)", "\($0.failed + $0.crashed)",
                        "\($0.muted)", "\($0.skipped)", "\($0.flaky)", Figures.seconds($0.duration), $0.status.rawValue,
                    ]
                }, numeric: [6, 7, 8, 9, 10, 11, 12])
        }
    }
}
