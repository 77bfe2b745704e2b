/// Why the store cannot be used.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The file was migrated by a newer TestLedger; it is left untouched. `unknown` names the
    /// migrations this version does not know.
    case newerSchema(path: String, unknown: [String])
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// No run matches what was asked for; the text names the run, or says `of project P` or
    /// `at all` when a project, or the whole store, has no run.
    case noSuchRun(String)
    /// No test matches what was asked for; the text names the test id, and the run when one was given.
    case noSuchTest(String)
    /// Tests that are not in quarantine were asked to leave it; the text names them.
    case notInQuarantine(String)
    /// A migration would have left rows of `table` pointing at rows that do not exist; nothing
    /// was changed.
    case foreignKeyViolation(table: String)
    /// The ledger could not be opened or written: its disk is full, it or its folder is read-only,
    /// or the file system failed. Nothing of the write was kept.
    case cannotWrite(path: String, reason: String)
    /// The database server at `location` could not be reached or refused the connection.
    case unreachable(location: String, reason: String)
    /// The database server at `location` refused a statement; nothing of the change was kept.
    case refused(location: String, reason: String)
    /// The database at `location` cannot hold a value of the input (PostgreSQL's text cannot hold
    /// a NUL character); nothing of the input was kept.
    case unstorable(location: String, reason: String)
    /// The fix in row `id` cannot be read back: its JSON was written by another program.
    case unreadableFix(id: Int64, reason: String)

    /// What went wrong and what to do about it, in one message for people.
    public var description: String {
        switch self {
        case .newerSchema(let path, let unknown):
            "\(path): this database was written by a newer TestLedger (schema "
                + "\(unknown.joined(separator: ", "))); it was left untouched. "
                + "Upgrade testledger, or point TESTLEDGER_DB (or --db) at another ledger."
        case .notADatabase(let path):
            "\(path): not an SQLite database. Point TESTLEDGER_DB (or --db) at a ledger file."
        case .noSuchRun(let run):
            "no run \(run) in the store. `testledger runs` lists the runs."
        case .noSuchTest(let test):
            "no test \(test) in the store. Check the test id (see `testledger report flaky`)."
        case .notInQuarantine(let tests):
            "not in quarantine: \(tests); nothing was changed. `testledger quarantine list` shows what is."
        case .cannotWrite(let path, let reason):
            "\(path): cannot use the ledger: \(reason); nothing of this was stored and the ledger is as it was. "
                + "Free space or make the file writable, or point TESTLEDGER_DB (or --db) at another file."
        case .unreachable(let location, let reason):
            "\(location): cannot connect: \(reason). Check that the server runs and the URL's host, port, user "
                + "and database (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)."
        case .refused(let location, let reason):
            "\(location): \(reason); nothing of this was stored."
        case .unstorable(let location, let reason):
            "\(location) cannot store this input: \(reason); nothing of it was stored. Remove the value "
                + "(a NUL character, say) from the input and send it again."
        case .unreadableFix(let id, let reason):
            "the ledger's fix \(id) cannot be read: \(reason). Delete the row (DELETE FROM fix WHERE id = \(id)) "
                + "and verify the fix again."
        case .foreignKeyViolation(let table):
            "migrating the ledger would leave rows of \(table) pointing at rows that do not exist; it was left "
                + "as it was. Check the file with `sqlite3 LEDGER 'PRAGMA foreign_key_check'`."
        }
    }
}

extension StoreError {
    /// How ``noSuchTest(_:)`` names a test: with the run and the attempt when they were asked for.
    package static func naming(_ test: String, run: String?, attempt: Int?) -> String {
        (attempt.map { "\(test) attempt \($0)" } ?? test) + (run.map { " in run \($0)" } ?? "")
    }
}
