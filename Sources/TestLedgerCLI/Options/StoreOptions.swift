import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres
import LedgerStore

/// Where the ledger is: `--db` (a file's path, or a `postgres://` URL), else
/// `TESTLEDGER_DATABASE_URL`, else `TESTLEDGER_DB`, else `.testledger/ledger.sqlite`. A URL without
/// a password takes `TESTLEDGER_DATABASE_PASSWORD`'s, which needs no escaping.
struct StoreOptions: ParsableArguments {
    @Option(
        name: [.long, .customLong("database")],
        help: ArgumentHelp(
            "The ledger: an SQLite file or a postgres://USER@HOST[:PORT]/DATABASE URL "
                + "(default: $TESTLEDGER_DATABASE_URL, else $TESTLEDGER_DB, else .testledger/ledger.sqlite).",
            valueName: "path-or-url"))
    var db: String?

    /// The ledger as given, with the environment's default.
    var location: String {
        db ?? LedgerEnvironment()["TESTLEDGER_DATABASE_URL"] ?? LedgerEnvironment().databasePath
    }

    /// The ledger file of `record`, whose tests write it themselves: `--db`, else `TESTLEDGER_DB`.
    var filePath: String {
        db ?? LedgerEnvironment().databasePath
    }

    /// Opens the store; an SQLite ledger first stores what crashed recorders left in their journals.
    func open() throws -> any ResultStore & CredentialStore {
        let location = self.location
        guard PostgresLocation.isURL(location) else { return try openFile(path: location) }
        do {
            return try PostgresLedger(
                location: PostgresLocation(
                    url: location, password: LedgerEnvironment()["TESTLEDGER_DATABASE_PASSWORD"]))
        } catch let problem as PostgresLocation.Problem {
            throw ValidationError("--db: \(problem)")
        }
    }

    /// Opens the store for a command that only reads it. An SQLite ledger that is up to date, with
    /// no journal of a crashed recorder to store, is opened read-only: nothing is written to it.
    func openForReading() throws -> any ResultStore & CredentialStore {
        let location = self.location
        let journals = PendingJournals.folder(forDatabase: location)
        guard !PostgresLocation.isURL(location),
            (try? FileManager.default.contentsOfDirectory(atPath: journals.path))?.isEmpty ?? true
        else { return try open() }
        return OpenedLedgers.keep(try LedgerDatabase.openForReading(path: location))
    }

    /// Opens the ledger file that test processes write themselves (`record`): an SQLite file,
    /// never a database server.
    func openFile() throws -> LedgerDatabase {
        let path = filePath
        guard !PostgresLocation.isURL(path) else {
            throw ValidationError(
                "record keeps its run in a ledger file that the tests write themselves; give --db a file "
                    + "(or none), then `testledger upload` it to the team's server")
        }
        return try openFile(path: path)
    }

    /// Opens an SQLite ledger, closed when the command finishes (``OpenedLedgers``).
    private func openFile(path: String) throws -> LedgerDatabase {
        let database = OpenedLedgers.keep(try LedgerDatabase(path: path))
        database.recoverPendingJournals(databasePath: path)
        return database
    }
}
