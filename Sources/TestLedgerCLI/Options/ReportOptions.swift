import ArgumentParser
import LedgerCore
import LedgerRecording
import LedgerStore

/// What every report reads and how it prints it: the ledger (``StoreOptions``) and `--format`
/// (``OutputOptions``).
struct ReportOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    /// Loads `.testledger.yml`, then opens the ledger.
    func open() throws -> (config: ProjectConfiguration, database: any ResultStore) {
        let config = try ProjectConfiguration.load()
        return (config, try store.openForReading())
    }

    /// Prints `report` as JSON, or as `table` or `markdown` renders it.
    func print<Report: Encodable>(_ report: Report, table: (Report) -> String, markdown: (Report) -> String) throws {
        switch output.format {
        case .json: Swift.print(try OutputOptions.json(report))
        case .table: Swift.print(table(report))
        case .markdown: Swift.print(markdown(report))
        }
    }
}

extension OwnerOptions {
    /// `report` with each test's owners and, with `--owner`, only that owner's tests.
    func scope<Report: OwnedReport>(_ report: Report, owners: TestOwners) -> Report {
        report.scoped(to: owner, owners: owners)
    }
}
