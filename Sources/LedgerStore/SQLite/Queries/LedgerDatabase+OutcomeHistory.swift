import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// Each test's attempts in each of the newest `runs` runs of a project (started since `since`),
    /// oldest run first; a run without the test is there with no attempts, so that strips of
    /// several tests line up.
    /// - Parameters:
    ///   - project: the project the runs and tests belong to.
    ///   - tests: the stable ids of the tests.
    ///   - count: how many of the newest runs; a negative number means all.
    ///   - since: only runs started since then, in seconds since 1970; `nil` for no bound.
    /// - Returns: for each test, one entry per run, oldest first; empty when there are no tests or
    ///   no runs.
    /// - Throws: any SQLite error.
    public func outcomeStrips(
        project: String, tests: [String], runs count: Int, since: Double? = nil
    ) throws -> [String: [AttemptsInRun]] {
        let runs = try windowRuns(project: project, count: count, since: since).reversed()
        guard !tests.isEmpty, !runs.isEmpty else { return [:] }
        let attempts = try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.key, r.runId, \(Self.attemptOutcome(result: "r", run: "run")) AS outcome,
                        coalesce(r.duration, 0) AS seconds
                    FROM test t JOIN result r ON r.testId = t.id JOIN run ON run.id = r.runId
                    WHERE t.project = ?1 AND t.key IN (SELECT value FROM json_each(?2))
                        AND r.runId IN (SELECT value FROM json_each(?3))
                    ORDER BY r.attempt
                    """,
                arguments: [project, Self.jsonArray(tests), Self.jsonArray(runs.map(\.row))]
            )
        }
        return AttemptsInRun.strips(
            tests: tests, runs: Array(runs),
            attempts: attempts.map {
                (test: $0["key"], run: $0["runId"], outcome: $0["outcome"], seconds: $0["seconds"])
            })
    }

    /// The newest `limit` runs of a project that have the test, newest first.
    /// - Parameters:
    ///   - project: the project the runs and test belong to.
    ///   - test: the test's stable id.
    ///   - limit: how many runs at most; a negative number means all.
    /// - Returns: the test's attempts in each of those runs.
    /// - Throws: any SQLite error.
    public func outcomeHistory(project: String, test: String, limit: Int) throws -> [AttemptsInRun] {
        try writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH chosen AS (
                        SELECT run.id, run.uuid, run.startedAt, run.endedAt, run.revision, run.configuration,
                            run.kind, run.labels, t.id AS testId
                        FROM test t JOIN run ON run.project = t.project
                        WHERE t.project = ?1 AND t.key = ?2
                            AND EXISTS (SELECT 1 FROM result WHERE runId = run.id AND testId = t.id)
                        ORDER BY run.startedAt DESC, run.id DESC LIMIT ?3)
                    SELECT chosen.uuid, chosen.startedAt, chosen.revision, chosen.configuration, chosen.kind,
                        chosen.labels, \(Self.attemptOutcome(result: "r", run: "chosen")) AS outcome,
                        coalesce(r.duration, 0) AS seconds
                    FROM chosen JOIN result r ON r.runId = chosen.id AND r.testId = chosen.testId
                    ORDER BY chosen.startedAt DESC, chosen.id, r.attempt
                    """, arguments: [project, test, limit])
            return AttemptsInRun.history(
                of: test,
                rows.map {
                    AttemptsInRun.HistoryRow(
                        run: $0["uuid"], startedAt: $0["startedAt"], revision: $0["revision"],
                        configuration: $0["configuration"], kind: $0["kind"], labels: $0["labels"],
                        outcome: $0["outcome"], seconds: $0["seconds"])
                })
        }
    }
}
