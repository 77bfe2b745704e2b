import GRDB
import LedgerCore

/// A test's final attempt in one run, as `report run` and `record`'s quarantine read it.
package struct FinalResult {
    package var test: String
    /// Its outcome; `crashed` when it never ended.
    package var outcome: Outcome
    /// The result's message, else its first issue's.
    package var message: String?
    /// Where it failed: its first issue's file and line that has a file, else the test's declaration.
    package var file: String?
    package var line: Int?

    package init(test: String, outcome: Outcome, message: String?, file: String? = nil, line: Int? = nil) {
        (self.test, self.outcome, self.message, self.file, self.line) = (test, outcome, message, file, line)
    }

    /// The place from the first issue with a file, else the test's.
    package static func place(issue: (file: String?, line: Int?), test: (file: String?, line: Int?)) -> (String?, Int?)
    {
        issue.file != nil ? issue : test
    }

    /// Every test's final attempt in the run with row `run`, by test id.
    static func all(run: Int64, in db: Database) throws -> [FinalResult] {
        // SQLite takes the bare columns from the row of the query's only `max`.
        try Row.fetchAll(
            db,
            sql: """
                SELECT test.key, final.outcome,
                    coalesce(final.message,
                        (SELECT message FROM issue WHERE issue.resultId = final.id ORDER BY issue.id LIMIT 1)),
                    placed.file, placed.line, test.file, test.line
                FROM (
                    SELECT id, testId, outcome, message, max(attempt) FROM result WHERE runId = ? GROUP BY testId
                ) AS final JOIN test ON test.id = final.testId
                LEFT JOIN issue AS placed ON placed.id = (
                    SELECT id FROM issue WHERE issue.resultId = final.id AND issue.file IS NOT NULL
                    ORDER BY issue.id LIMIT 1)
                ORDER BY test.key
                """, arguments: [run]
        ).map { row in
            let (file, line) = place(issue: (row[3], row[4]), test: (row[5], row[6]))
            return FinalResult(
                test: row[0], outcome: (row[1] as String?).flatMap(Outcome.init(rawValue:)) ?? .crashed,
                message: row[2], file: file, line: line)
        }
    }
}
