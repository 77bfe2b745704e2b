import ArgumentParser

/// The `testledger` command: records test runs and reports on them.
@main
struct TestLedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testledger",
        abstract: "Records test runs into a ledger and tells which tests to trust.",
        subcommands: [
            Ingest.self, Record.self, Format.self, Runs.self, Report.self, Show.self, Quarantine.self, Serve.self,
            Token.self, Upload.self, Prune.self,
        ])
}
