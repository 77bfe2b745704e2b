import GRDB
import LedgerCore

extension FinalResult {
    /// Every test's final attempt in the run with row `run`, by test id.
    static func all(run: Int64, in db: Database) throws -> [FinalResult] {
        // SQLite takes the bare columns from the row of the query's only `max`.
        try Row.fetchAll(
            db,
            sql: """
                SELECT test.key AS test, final.outcome,
                    coalesce(final.message,
                        (SELECT message FROM issue WHERE issue.resultId = final.id ORDER BY issue.id LIMIT 1))
                        AS message,
                    placed.file AS issueFile, placed.line AS issueLine, test.file, test.line
                FROM (
                    SELECT id, testId, outcome, message, max(attempt) FROM result WHERE runId = ? GROUP BY testId
                ) AS final JOIN test ON test.id = final.testId
                LEFT JOIN issue AS placed ON placed.id = (
                    SELECT id FROM issue WHERE issue.resultId = final.id AND issue.file IS NOT NULL
                    ORDER BY issue.id LIMIT 1)
                ORDER BY test.key
                """, arguments: [run]
        ).map { row in
            FinalResult.placed(
                test: row["test"], outcome: (row["outcome"] as String?).flatMap(Outcome.init(rawValue:)) ?? .crashed,
                message: row["message"], issue: (row["issueFile"], row["issueLine"]),
                declaration: (row["file"], row["line"]))
        }
    }
}
