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
    /// Where the test is declared, when ``file`` is an issue's.
    package var declared: RunReport.Place?

    package init(
        test: String, outcome: Outcome, message: String?, file: String? = nil, line: Int? = nil,
        declared: RunReport.Place? = nil
    ) {
        (self.test, self.outcome, self.message) = (test, outcome, message)
        (self.file, self.line, self.declared) = (file, line, declared)
    }

    /// The result with its place: the first issue's with a file, else the test's declaration.
    package static func placed(
        test: String, outcome: Outcome, message: String?, issue: (file: String?, line: Int?),
        declaration: (file: String?, line: Int?)
    ) -> FinalResult {
        let declared = declaration.file.map { RunReport.Place(file: $0, line: declaration.line) }
        guard let file = issue.file else {
            return FinalResult(
                test: test, outcome: outcome, message: message, file: declared?.file, line: declared?.line)
        }
        return FinalResult(
            test: test, outcome: outcome, message: message, file: file, line: issue.line,
            declared: declared?.file == file ? nil : declared)
    }

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
