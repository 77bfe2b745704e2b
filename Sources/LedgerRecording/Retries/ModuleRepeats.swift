import Foundation
import LedgerCore
import LedgerStore

/// `record --repeat-new` for a runner that runs its tests again in its own process (Bacon's
/// output module): it is told which tests are known, and repeats the others; `record` judges
/// them from their attempts afterwards.
package enum ModuleRepeats {
    /// `TESTLEDGER_REPEAT_NEW`, `TESTLEDGER_KNOWN_TESTS` (a JSON array written into `folder`) and
    /// `TESTLEDGER_REPEAT_NEW_BUDGET` (seconds); none when nothing ran before to tell new tests by.
    /// - Throws: what writing the list throws.
    package static func environment(known: TestsKnownBefore, repeats: Int, budget: Double?, folder: URL) throws
        -> [String:
        String]
    {
        guard known.comparedWith.runs > 0 else { return [:] }
        let file = folder.appending(path: "known-tests.json")
        try JSONEncoder().encode(known.tests.sorted()).write(to: file)
        var variables = [
            LedgerEnvironment.Module.repeatNew: String(repeats), LedgerEnvironment.Module.knownTests: file.path,
        ]
        if let budget { variables[LedgerEnvironment.Module.repeatNewBudget] = String(budget) }
        return variables
    }

    /// The verdict on the run's new tests from the attempts the runner gave each.
    /// - Throws: what reading the store throws.
    package static func outcome(
        run: String, known: TestsKnownBefore, base: String, repeats: Int, budget: Double?,
        in database: any ResultStore
    ) throws -> NewTestRepeats.Outcome {
        let new = try database.newTests(run: run, known: known, base: base)
        guard new.comparedWith.runs > 0 else { return NewTestRepeats.nothingToCompare(base: base) }
        var attempts: [String: [AttemptState]] = [:]
        for test in Set(new.seconds.keys).union(new.failed) {
            attempts[test] = try database.testDetail(test: test, run: run).attempts
        }
        guard attempts.values.contains(where: { $0.count > 1 }) else {
            return NewTestRepeats.Outcome(
                notRepeated: "the command ran no new test again (Bacon's testledger module does; another runner "
                    + "does not)")
        }
        return NewTestRepeats.Outcome(
            attempts: attempts, repeats: repeats, added: { max((attempts[$0]?.count ?? 1) - 1, 0) }, beyond: [],
            budget: budget)
    }
}
