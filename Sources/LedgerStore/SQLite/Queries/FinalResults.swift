import GRDB
import LedgerCore

/// A test's final attempt in one run, as `report run` and `record`'s quarantine read it.
package struct FinalResult {
    package var test: String
    /// Its outcome; `crashed` when it never ended.
    package var outcome: Outcome
    /// The result's message, else its first issue's.
    package var message: String?

    package init(test: String, outcome: Outcome, message: String?) {
        (self.test, self.outcome, self.message) = (test, outcome, message)
    }

    /// Every test's final attempt in the run with row `run`, by test id.
    static func all(run: Int64, in db: Database) throws -> [FinalResult] {
        // SQLite takes the bare columns from the row of the query's only `max`.
        try Row.fetchAll(
            db,
            sql: """
                SELECT test.key, final.outcome,
                    coalesce(final.message,
                        (SELECT message FROM issue WHERE issue.resultId = final.id ORDER BY issue.id LIMIT 1))
                FROM (
                    SELECT id, testId, outcome, message, max(attempt) FROM result WHERE runId = ? GROUP BY testId
                ) AS final JOIN test ON test.id = final.testId ORDER BY test.key
                """, arguments: [run]
        ).map { row in
            FinalResult(
                test: row[0], outcome: (row[1] as String?).flatMap(Outcome.init(rawValue:)) ?? .crashed,
                message: row[2])
        }
    }
}
