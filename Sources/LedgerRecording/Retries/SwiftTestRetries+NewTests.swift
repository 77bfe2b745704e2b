import Foundation
import LedgerCore
import LedgerStore

extension SwiftTestRetries {
    /// `record --repeat-new`: runs the run's new tests that passed `retries` more times each, as
    /// the next attempts of the same run, whatever each attempt ends as, within `budget` seconds.
    /// - Parameters:
    ///   - known: the tests known before the run.
    ///   - base: the branch that tells new tests from known ones.
    ///   - budget: the seconds the repeats may take; the tests beyond it are unproven.
    ///   - database: the ledger the run is stored in.
    /// - Returns: what the repeats found, and the problems storing the processes' outputs.
    /// - Throws: what reading the store or storing the processes' outputs throws.
    package func repeatNew(known: TestsKnownBefore, base: String, budget: Double?, in database: LedgerDatabase) throws
        -> (
            NewTestRepeats.Outcome, problems: [String]
        )
    {
        let new = try database.newTests(run: run, known: known, base: base)
        guard new.comparedWith.runs > 0 else { return (NewTestRepeats.nothingToCompare(base: base), []) }
        let (chosen, beyond) = NewTestRepeats.within(budget: budget, repeats: retries, seconds: new.seconds)
        var schedule = RetrySchedule(repeating: try attempts(of: chosen, in: database), times: retries)
        let deadline = budget.map { Date().timeIntervalSince1970 + $0 }
        let (problems, interrupted) = try drive(&schedule, in: database, deadline: deadline) { batch in
            "repeating \(batch.tests.count) new test(s), attempt \(batch.offset + 1)"
        }
        var outcome = NewTestRepeats.Outcome(
            attempts: schedule.attempts, repeats: retries, added: schedule.added, beyond: beyond, budget: budget)
        outcome.interrupted = interrupted
        return (outcome, problems)
    }
}
