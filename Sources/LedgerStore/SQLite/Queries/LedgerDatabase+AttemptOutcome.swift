extension LedgerDatabase {
    /// SQL for an attempt's outcome as reports show it: an attempt without an end is still
    /// running while its run goes on, and crashed once the run is over.
    /// - Parameters:
    ///   - result: the alias of the `result` row.
    ///   - run: the alias of its `run` row.
    /// - Returns: an SQL expression, `NULL` for an attempt still running.
    static func attemptOutcome(result: String, run: String) -> String {
        SQLDialect.sqlite.attemptOutcome(result: result, run: run)
    }
}
