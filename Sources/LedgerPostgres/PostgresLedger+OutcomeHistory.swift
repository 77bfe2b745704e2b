import Foundation
import LedgerCore
import LedgerStore
import PostgresNIO

extension PostgresLedger {
    /// SQL for an attempt's outcome as reports show it: still running while its run goes on,
    /// crashed once the run is over.
    static func attemptOutcome(result: String, run: String) -> String {
        SQLDialect.postgresql.attemptOutcome(result: result, run: run)
    }

    public func outcomeStrips(
        project: String, tests: [String], runs count: Int, since: Double? = nil
    ) throws -> [String: [AttemptsInRun]] {
        let runs = Array(try windowRuns(project: project, count: count < 0 ? nil : count, since: since).reversed())
        guard !tests.isEmpty, !runs.isEmpty else { return [:] }
        let attempts = try withConnection { session in
            try session.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT t.key, r.runId, \(Self.attemptOutcome(result: "r", run: "run")),
                            coalesce(r.duration, 0)
                        FROM test t JOIN result r ON r.testId = t.id JOIN run ON run.id = r.runId
                        WHERE t.project = $1 AND t.key = ANY($2) AND r.runId = ANY($3)
                        ORDER BY r.attempt
                        """, binds: Self.binds(project, tests, runs.map(\.row)))
            ).map { row in
                let (test, run, outcome, seconds) = try row.decode((String, Int64, String?, Double).self)
                return (test: test, run: run, outcome: outcome, seconds: seconds)
            }
        }
        return AttemptsInRun.strips(tests: tests, runs: runs, attempts: attempts)
    }

    public func outcomeHistory(project: String, test: String, limit: Int) throws -> [AttemptsInRun] {
        let limit: Int? = limit < 0 ? nil : limit
        return try withConnection { session in
            AttemptsInRun.history(
                of: test,
                try session.rows(
                    PostgresQuery(
                        unsafeSQL: """
                            WITH chosen AS (
                                SELECT run.id, run.uuid, run.startedAt, run.endedAt, run.revision, run.configuration,
                                    run.kind, run.labels, t.id AS testId
                                FROM test t JOIN run ON run.project = t.project
                                WHERE t.project = $1 AND t.key = $2
                                    AND EXISTS (SELECT 1 FROM result WHERE runId = run.id AND testId = t.id)
                                ORDER BY run.startedAt DESC, run.id DESC LIMIT $3)
                            SELECT chosen.uuid, chosen.startedAt, chosen.revision, chosen.configuration, chosen.kind,
                                chosen.labels, \(Self.attemptOutcome(result: "r", run: "chosen")),
                                coalesce(r.duration, 0)
                            FROM chosen JOIN result r ON r.runId = chosen.id AND r.testId = chosen.testId
                            ORDER BY chosen.startedAt DESC, chosen.id, r.attempt
                            """, binds: Self.binds(project, test, limit))
                ).map { row in
                    let (run, startedAt, revision, configuration, kind, labels, outcome, seconds) = try row.decode(
                        (String, Double, String?, String, String?, String?, String?, Double).self)
                    return AttemptsInRun.HistoryRow(
                        run: run, startedAt: startedAt, revision: revision, configuration: configuration, kind: kind,
                        labels: labels, outcome: outcome, seconds: seconds)
                })
        }
    }

    /// Binds for a query whose SQL is built around a helper's fragment.
    static func binds(_ values: (any PostgresDynamicTypeEncodable)?...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if let value { bindings.append(value) } else { bindings.appendNull() }
        }
        return bindings
    }
}
