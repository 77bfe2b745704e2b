import Foundation
import LedgerCore
import LedgerStore
import PostgresNIO

extension PostgresLedger {
    /// SQL for an attempt's outcome as reports show it: still running while its run goes on,
    /// crashed once the run is over.
    static func attemptOutcome(result: String, run: String) -> String {
        "coalesce(\(result).outcome, CASE WHEN \(run).endedAt IS NOT NULL THEN 'crashed' END)"
    }

    public func testDetail(test: String, run: String?, project: String? = nil, attempt: Int? = nil) throws
        -> TestDetail
    {
        if attempt != nil, run == nil {
            // The newest run with the test, then its attempt: not the newest run with that attempt.
            let newest = try testDetail(test: test, run: nil, project: project).run
            return try testDetail(test: test, run: newest, project: project, attempt: attempt)
        }
        return try transaction(readOnly: true) { session in
            guard
                let result = try session.rows(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT r.id, r.runId, r.attempt, run.uuid, r.startedAt, r.duration,
                                \(Self.attemptOutcome(result: "r", run: "run")), t.id, t.file, t.line, t.layer
                            FROM result r JOIN test t ON t.id = r.testId JOIN run ON run.id = r.runId
                            WHERE t.key = $1 AND ($2::text IS NULL OR run.uuid = $2)
                                AND ($3::text IS NULL OR run.project = $3) AND ($4::bigint IS NULL OR r.attempt = $4)
                            ORDER BY run.startedAt DESC, run.id DESC, r.attempt DESC LIMIT 1
                            """, binds: Self.binds(test, run, project, attempt))
                ).first
            else { throw StoreError.noSuchTest(StoreError.naming(test, run: run, attempt: attempt)) }
            let (resultID, runID, attempt, uuid, startedAt, duration, outcome, testID, file, line, layer) =
                try result.decode(
                    (Int64, Int64, Int, String, Double, Double?, String?, Int64, String?, Int?, String?).self)
            let attempts = try session.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(Self.attemptOutcome(result: "r", run: "run")) FROM result r
                        JOIN run ON run.id = r.runId WHERE r.runId = $1 AND r.testId = $2 ORDER BY r.attempt
                        """, binds: Self.binds(runID, testID))
            ).map { AttemptState(try $0.decode(String?.self).flatMap(Outcome.init(rawValue:))) }
            var detail = TestDetail(
                test: test, run: uuid, startedAt: iso8601(startedAt),
                outcome: AttemptState(outcome.flatMap(Outcome.init(rawValue:))), duration: duration,
                attempts: attempts, file: file, line: line, layer: layer.flatMap(Layer.init(rawValue:)),
                issues: try session.rows(
                    "SELECT at, message, file, line, kind FROM issue WHERE resultId = \(resultID) ORDER BY at, id"
                ).map { row in
                    let (at, message, file, line, kind) = try row.decode((Double, String, String?, Int?, String?).self)
                    return LedgerEvent.Issue(
                        at: at, test: test, attempt: attempt, message: message, file: file, line: line,
                        kind: kind.flatMap(LedgerEvent.IssueKind.init(rawValue:)))
                },
                activities: TestDetail.ActivityDetail.tree(
                    try session.rows(
                        """
                        SELECT id, parentId, name, startedAt, endedAt, outcome, key FROM activity
                        WHERE resultId = \(resultID) ORDER BY startedAt, id
                        """
                    ).map { row in
                        let (id, parent, name, started, ended, outcome, key) = try row.decode(
                            (Int64, Int64?, String?, Double, Double?, String?, String).self)
                        return StoredActivity(
                            id: id, parent: parent, name: name, started: started, ended: ended, outcome: outcome,
                            key: key)
                    }),
                captures: try captures(resultID, test: test, attempt: attempt, in: session),
                predicates: try predicates(resultID, test: test, attempt: attempt, in: session))
            detail.attachments = try attachments(resultID, test: test, attempt: attempt, in: session)
            detail.attempt = attempt
            return detail
        }
    }

    private func captures(_ resultID: Int64, test: String, attempt: Int, in session: PostgresSession) throws
        -> [LedgerEvent.Capture]
    {
        try session.rows(
            """
            SELECT c.at, c.verifier, a.key, c.fields FROM capture c
            LEFT JOIN activity a ON a.id = c.activityId WHERE c.resultId = \(resultID) ORDER BY c.at, c.id
            """
        ).map { row in
            let (at, verifier, activity, fields) = try row.decode((Double, String, String?, String?).self)
            return LedgerEvent.Capture(
                at: at, test: test, attempt: attempt, verifier: verifier, activity: activity,
                fields: fields.flatMap { JSONValue(jsonText: $0) })
        }
    }

    private func predicates(_ resultID: Int64, test: String, attempt: Int, in session: PostgresSession) throws
        -> [LedgerEvent.Predicate]
    {
        try session.rows(
            """
            SELECT p.at, p.name, p.expect, p.held, p.attempts, p.waited, p.timeout, p.interval,
                a.key, p.file, p.line
            FROM predicate p LEFT JOIN activity a ON a.id = p.activityId
            WHERE p.resultId = \(resultID) ORDER BY p.at, p.id
            """
        ).map { row in
            var columns = row.makeRandomAccess()
            return LedgerEvent.Predicate(
                at: try columns[0].decode(Double.self), test: test, attempt: attempt,
                name: try columns[1].decode(String.self),
                expect: PredicateExpectation(rawValue: try columns[2].decode(String.self)) ?? .holds,
                held: try columns[3].decode(Int.self) != 0, attempts: try columns[4].decode(Int.self),
                waited: try columns[5].decode(Double.self), timeout: try columns[6].decode(Double.self),
                interval: try columns[7].decode(Double?.self), activity: try columns[8].decode(String?.self),
                file: try columns[9].decode(String?.self), line: try columns[10].decode(Int?.self))
        }
    }

    private func attachments(_ resultID: Int64, test: String, attempt: Int, in session: PostgresSession) throws
        -> [LedgerEvent.Attachment]
    {
        try session.rows(
            """
            SELECT t.at, t.name, t.mediaType, t.size, a.key, t.path
            FROM attachment t LEFT JOIN activity a ON a.id = t.activityId
            WHERE t.resultId = \(resultID) ORDER BY t.at, t.id
            """
        ).map { row in
            let (at, name, mediaType, size, activity, path) = try row.decode(
                (Double, String, String?, Int?, String?, String?).self)
            return LedgerEvent.Attachment(
                at: at, test: test, attempt: attempt, name: name, mediaType: mediaType, size: size,
                activity: activity, path: path)
        }
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
                try session.rows(
                    PostgresQuery(
                        unsafeSQL: """
                            WITH chosen AS (
                                SELECT run.id, run.uuid, run.startedAt, run.endedAt, run.revision, run.configuration,
                                    t.id AS testId
                                FROM test t JOIN run ON run.project = t.project
                                WHERE t.project = $1 AND t.key = $2
                                    AND EXISTS (SELECT 1 FROM result WHERE runId = run.id AND testId = t.id)
                                ORDER BY run.startedAt DESC, run.id DESC LIMIT $3)
                            SELECT chosen.uuid, chosen.startedAt, chosen.revision, chosen.configuration,
                                \(Self.attemptOutcome(result: "r", run: "chosen")), coalesce(r.duration, 0)
                            FROM chosen JOIN result r ON r.runId = chosen.id AND r.testId = chosen.testId
                            ORDER BY chosen.startedAt DESC, chosen.id, r.attempt
                            """, binds: Self.binds(project, test, limit))
                ).map { row in
                    let (run, startedAt, revision, configuration, outcome, seconds) = try row.decode(
                        (String, Double, String?, String, String?, Double).self)
                    return (
                        run: run, startedAt: startedAt, revision: revision, configuration: configuration,
                        outcome: outcome, seconds: seconds
                    )
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
