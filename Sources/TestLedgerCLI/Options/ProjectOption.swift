import ArgumentParser
import LedgerStore

/// `--project`: the project a report is on, the newest run's when not given.
struct ProjectOption: ParsableArguments {
    @Option(
        name: .customLong("project"),
        help: ArgumentHelp("The project (default: the newest run's).", valueName: "project"))
    var name: String?

    /// The project given, else the newest run's; `nil` when the ledger has no runs.
    func resolved(in database: any ResultStore) throws -> String? {
        try name ?? database.latestProject()
    }
}
