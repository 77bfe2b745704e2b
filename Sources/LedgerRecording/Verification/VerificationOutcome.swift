import LedgerStore

/// What a verification's runs found, whatever ran them.
package struct VerificationOutcome {
    /// Each test's result in each run it ran in, in order, `true` for a pass.
    package var passes: [String: [Bool]] = [:]
    /// Problems storing what the runner wrote, each naming its file.
    package var problems: [String] = []
    /// Whether an interrupt (Ctrl-C) or the deadline stopped the runs early.
    package var stopped = false

    package init() {}

    /// The outcome of a runner that made every run in one process which ended with `status`: each
    /// test's attempts in the verification run, as stored.
    /// - Parameters:
    ///   - tests: the tests verified.
    ///   - run: the verification run.
    ///   - status: the process's exit status; 128 and above for a signal (an interrupt).
    ///   - problems: problems storing what the process wrote.
    ///   - fix: what to check, beyond the test's id, when a test did not run.
    ///   - database: the ledger the run is stored in.
    /// - Throws: a test that did not run although the process ended by itself and its outputs
    ///   were stored.
    package init(
        oneProcessOf tests: [String], run: String, status: Int32, problems: [String] = [], fix: String = "",
        in database: LedgerDatabase
    ) throws {
        self.problems = problems
        stopped = status >= 128
        for test in tests {
            let attempts = (try? database.testDetail(test: test, run: run))?.attempts ?? []
            if attempts.isEmpty, !stopped, problems.isEmpty {
                throw RecordUsageError("\(test) did not run: check its id (testledger report flaky lists them)\(fix)")
            }
            passes[test] = attempts.map { $0 == .ended(.passed) }
        }
    }
}
