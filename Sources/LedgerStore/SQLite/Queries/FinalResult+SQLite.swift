import GRDB
import LedgerCore

extension FinalResult {
    /// Every test's final attempt in the run with row `run`, by test id.
    static func all(run: Int64, in db: Database) throws -> [FinalResult] {
        // SQLite takes the bare columns from the row of the query's only `max`. Read through
        // SQLite's C API: a run has as many rows as its tests.
        var statement = FastStatement(
            try db.cachedStatement(
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
                    """))
        statement.bind(run)
        var results: [FinalResult] = []
        try statement.forEachRow(in: db) { row in
            results.append(
                FinalResult.placed(
                    test: row.string(0) ?? "", outcome: row.string(1).flatMap(Outcome.init(rawValue:)) ?? .crashed,
                    message: row.string(2), issue: (row.string(3), row.int(4)),
                    declaration: (row.string(5), row.int(6))))
        }
        return results
    }
}
