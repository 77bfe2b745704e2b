import ArgumentParser
import Foundation
import LedgerCore
import LedgerStore

/// Where the ledger is: `--db`, else `TESTLEDGER_DB`, else `.testledger/ledger.sqlite`.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "The ledger database (default: $TESTLEDGER_DB or .testledger/ledger.sqlite).")
    var db: String?

    var path: String {
        db ?? LedgerEnvironment().databasePath
    }

    /// Opens the store, first storing what crashed recorders left in their journals.
    func open() throws -> LedgerDatabase {
        let database = try LedgerDatabase(path: path)
        database.recoverPendingJournals(databasePath: path)
        return database
    }
}
