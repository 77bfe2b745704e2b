import ArgumentParser
import LedgerCore
import LedgerRecording
import LedgerStore

/// `--project`: the project a command is on. One rule for every command, the one `record` names
/// its runs by: `--project`, else `TESTLEDGER_PROJECT`, else `.testledger.yml`'s `project`, else
/// (where nothing names one) the newest run's.
struct ProjectOption: ParsableArguments {
    @Option(
        name: .customLong("project"),
        help: ArgumentHelp(
            "The project (default: $TESTLEDGER_PROJECT, else .testledger.yml's project, else the newest run's).",
            valueName: "project"))
    var given: String?

    /// The project the flag, the environment or `.testledger.yml` names; `nil` leaves it to the
    /// ledger's newest run. A `.testledger.yml` that cannot be read names none here: the commands
    /// that read it say why.
    var name: String? { (try? Self.named(given)) ?? nil }

    /// The project given, else named by the environment or `.testledger.yml`, else the newest
    /// run's; `nil` when the ledger has no runs.
    func resolved(in database: any ResultStore) throws -> String? {
        try name ?? database.latestProject()
    }

    /// `given`, else `TESTLEDGER_PROJECT`, else `.testledger.yml`'s `project`.
    /// - Throws: a `.testledger.yml` that cannot be read.
    static func named(_ given: String?) throws -> String? {
        try given ?? LedgerEnvironment().project ?? ProjectConfiguration.load().project
    }
}
