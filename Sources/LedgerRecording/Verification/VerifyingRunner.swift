import Foundation
import LedgerStore

/// A runner `verify` can run named tests again and again with, each run the next attempt of one
/// run of kind `verification`: `swift test` a process a run, `xcodebuild` and a runner's module
/// (Bacon's) every run in one process.
package protocol VerifyingRunner {
    /// Runs the tests up to `runs` times; a test that fails runs no more.
    /// - Parameters:
    ///   - runs: the most runs.
    ///   - deadline: no run starts after this time (seconds since 1970), where the runner starts
    ///     a process a run.
    ///   - database: the ledger the verification run is stored in.
    /// - Returns: each test's result in each run it ran in, and whether the runs stopped early.
    /// - Throws: a test that never ran (its id matches no test), or what storing throws.
    func verify(runs: Int, deadline: Double?, in database: LedgerDatabase) throws -> VerificationOutcome
}
