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

    /// What went wrong and what to do about it, in one message for people.
    public var description: String {
        switch self {
        case .newerSchema(let path, let unknown):
            "\(path): this database was written by a newer TestLedger (schema "
                + "\(unknown.joined(separator: ", "))); it was left untouched. "
                + "Upgrade testledger, or point TESTLEDGER_DB at another file."
        case .notADatabase(let path):
            "\(path): not an SQLite database. Point TESTLEDGER_DB (or --db) at a ledger file."
        case .noSuchRun(let run):
            "no run \(run) in the store. `testledger runs` lists the runs."
        case .noSuchTest(let test):
            "no test \(test) in the store. Check the test id (see `testledger report flaky`)."
        case .notInQuarantine(let tests):
            "not in quarantine: \(tests); nothing was changed. `testledger quarantine list` shows what is."
        case .foreignKeyViolation(let table):
            "migrating the ledger would leave rows of \(table) pointing at rows that do not exist; it was left "
                + "as it was. Check the file with `sqlite3 LEDGER 'PRAGMA foreign_key_check'`."
        }
    }
}
