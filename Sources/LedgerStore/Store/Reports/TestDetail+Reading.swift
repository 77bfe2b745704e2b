import LedgerCore

extension TestDetail {
    /// One test's attempt (its final one, by default) in a run (the newest run that has it, by
    /// default), with its failures, activity tree, captures, predicates and attachments: the same
    /// queries and assembly for both stores.
    /// - Parameters:
    ///   - test: the stable test id.
    ///   - run: a run id; the newest run with the test when `nil`.
    ///   - project: only runs of this project, when given.
    ///   - attempt: this attempt (1 is the first); the highest-numbered when `nil`.
    ///   - reader: the store's read transaction.
    /// - Returns: the detail of the test's attempt in that run, with the outcomes of all its
    ///   attempts there.
    /// - Throws: ``StoreError/noSuchTest(_:)`` when no run has that test (or that attempt of it).
    package static func read(
        test: String, run: String?, project: String?, attempt: Int?, from reader: some StoreReader
    ) throws -> TestDetail {
        var run = run
        if attempt != nil, run == nil {
            // The newest run with the test, then its attempt: not the newest run with that attempt.
            run = try chosen(test: test, run: nil, project: project, attempt: nil, from: reader)?.string("uuid")
        }
        guard let chosen = try chosen(test: test, run: run, project: project, attempt: attempt, from: reader) else {
            throw StoreError.noSuchTest(StoreError.naming(test, run: run, attempt: attempt))
        }
        let result = try chosen.required(chosen.int64, "id")
        let attempt = try chosen.required(chosen.int, "attempt")
        let read = AttemptRows(reader: reader, result: result, test: test, attempt: attempt)
        var detail = TestDetail(
            test: test, run: try chosen.required(chosen.string, "uuid"),
            startedAt: iso8601(try chosen.required(chosen.double, "startedAt")),
            outcome: AttemptState(try chosen.string("outcome").flatMap(Outcome.init(rawValue:))),
            duration: try chosen.double("duration"),
            attempts: try outcomes(
                run: try chosen.required(chosen.int64, "runId"), test: try chosen.required(chosen.int64, "testId"),
                from: reader),
            file: try chosen.string("file"), line: try chosen.int("line"),
            layer: try chosen.string("layer").flatMap(Layer.init(rawValue:)), issues: try read.issues(),
            activities: try read.activities(), captures: try read.captures(), predicates: try read.predicates())
        detail.attachments = try read.attachments()
        detail.attempt = attempt
        return detail
    }

    /// The result row of the attempt asked for, the newest first.
    private static func chosen(
        test: String, run: String?, project: String?, attempt: Int?, from reader: some StoreReader
    ) throws -> (any NamedColumns)? {
        let sql = reader.dialect
        return try reader.rows(
            """
            SELECT r.id, r.runId, r.attempt, run.uuid, r.startedAt, r.duration,
                \(sql.attemptOutcome(result: "r", run: "run")) AS outcome, t.id AS testId, t.file, t.line, t.layer
            FROM result r JOIN test t ON t.id = r.testId JOIN run ON run.id = r.runId
            WHERE t.key = \(sql.parameter(1)) AND (\(sql.parameter(2, as: "text")) IS NULL OR run.uuid = \(sql.parameter(2)))
                AND (\(sql.parameter(3, as: "text")) IS NULL OR run.project = \(sql.parameter(3)))
                AND (\(sql.parameter(4, as: "bigint")) IS NULL OR r.attempt = \(sql.parameter(4)))
            ORDER BY run.startedAt DESC, run.id DESC, r.attempt DESC LIMIT 1
            """, [.text(test), .text(run), .text(project), .integer(attempt.map(Int64.init))]
        ).first
    }

    /// The outcomes of every attempt of the test in the run, in order.
    private static func outcomes(run: Int64, test: Int64, from reader: some StoreReader) throws -> [AttemptState] {
        let sql = reader.dialect
        return try reader.rows(
            """
            SELECT \(sql.attemptOutcome(result: "r", run: "run")) AS outcome FROM result r JOIN run ON run.id = r.runId
            WHERE r.runId = \(sql.parameter(1)) AND r.testId = \(sql.parameter(2)) ORDER BY r.attempt
            """, [.integer(run), .integer(test)]
        ).map { AttemptState(try $0.string("outcome").flatMap(Outcome.init(rawValue:))) }
    }
}

/// What happened inside one attempt, one query a table.
private struct AttemptRows<Reader: StoreReader> {
    let reader: Reader
    let result: Int64
    let test: String
    let attempt: Int

    private func rows(_ sql: String) throws -> [any NamedColumns] {
        try reader.rows(sql, [.integer(result)])
    }

    private var parameter: String { reader.dialect.parameter(1) }

    func issues() throws -> [LedgerEvent.Issue] {
        try rows("SELECT at, message, file, line, kind FROM issue WHERE resultId = \(parameter) ORDER BY at, id").map {
            LedgerEvent.Issue(
                at: try $0.required($0.double, "at"), test: test, attempt: attempt,
                message: try $0.required($0.string, "message"), file: try $0.string("file"), line: try $0.int("line"),
                kind: try $0.string("kind").flatMap(LedgerEvent.IssueKind.init(rawValue:)))
        }
    }

    func captures() throws -> [LedgerEvent.Capture] {
        try rows(
            """
            SELECT c.at, c.verifier, a.key AS activity, c.fields FROM capture c
            LEFT JOIN activity a ON a.id = c.activityId WHERE c.resultId = \(parameter) ORDER BY c.at, c.id
            """
        ).map {
            LedgerEvent.Capture(
                at: try $0.required($0.double, "at"), test: test, attempt: attempt,
                verifier: try $0.required($0.string, "verifier"), activity: try $0.string("activity"),
                fields: try $0.string("fields").flatMap { JSONValue(jsonText: $0) })
        }
    }

    func predicates() throws -> [LedgerEvent.Predicate] {
        try rows(
            """
            SELECT p.at, p.name, p.expect, p.held, p.attempts, p.waited, p.timeout, p.interval,
                a.key AS activity, p.file, p.line
            FROM predicate p LEFT JOIN activity a ON a.id = p.activityId
            WHERE p.resultId = \(parameter) ORDER BY p.at, p.id
            """
        ).map {
            LedgerEvent.Predicate(
                at: try $0.required($0.double, "at"), test: test, attempt: attempt,
                name: try $0.required($0.string, "name"),
                expect: PredicateExpectation(rawValue: try $0.required($0.string, "expect")) ?? .holds,
                held: try $0.required($0.int64, "held") != 0, attempts: try $0.required($0.int, "attempts"),
                waited: try $0.required($0.double, "waited"), timeout: try $0.required($0.double, "timeout"),
                interval: try $0.double("interval"), activity: try $0.string("activity"), file: try $0.string("file"),
                line: try $0.int("line"))
        }
    }

    func attachments() throws -> [LedgerEvent.Attachment] {
        try rows(
            """
            SELECT t.at, t.name, t.mediaType, t.size, a.key AS activity, t.path
            FROM attachment t LEFT JOIN activity a ON a.id = t.activityId
            WHERE t.resultId = \(parameter) ORDER BY t.at, t.id
            """
        ).map {
            LedgerEvent.Attachment(
                at: try $0.required($0.double, "at"), test: test, attempt: attempt,
                name: try $0.required($0.string, "name"), mediaType: try $0.string("mediaType"),
                size: try $0.int("size"), activity: try $0.string("activity"), path: try $0.string("path"))
        }
    }

    func activities() throws -> [TestDetail.ActivityDetail] {
        TestDetail.ActivityDetail.tree(
            try rows(
                """
                SELECT id, parentId, name, startedAt, endedAt, outcome, key FROM activity
                WHERE resultId = \(parameter) ORDER BY startedAt, id
                """
            ).map {
                StoredActivity(
                    id: try $0.required($0.int64, "id"), parent: try $0.int64("parentId"), name: try $0.string("name"),
                    started: try $0.required($0.double, "startedAt"), ended: try $0.double("endedAt"),
                    outcome: try $0.string("outcome"), key: try $0.required($0.string, "key"))
            })
    }
}

/// An activity's row, as a store reads it for a test's detail.
package struct StoredActivity {
    package var id: Int64
    package var parent: Int64?
    package var name: String?
    package var started: Double
    package var ended: Double?
    package var outcome: String?
    package var key: String

    package init(
        id: Int64, parent: Int64?, name: String?, started: Double, ended: Double?, outcome: String?, key: String
    ) {
        (self.id, self.parent, self.name, self.started, self.ended, self.outcome, self.key) = (
            id, parent, name, started, ended, outcome, key
        )
    }
}

extension TestDetail.ActivityDetail {
    /// The tree of an attempt's activities, from their rows in order of start.
    package static func tree(_ rows: [StoredActivity]) -> [TestDetail.ActivityDetail] {
        var children: [Int64?: [StoredActivity]] = [:]
        for row in rows { children[row.parent, default: []].append(row) }
        func build(_ parent: Int64?) -> [TestDetail.ActivityDetail] {
            (children[parent] ?? []).map { row in
                var activity = TestDetail.ActivityDetail(
                    id: row.key, name: row.name ?? "", duration: row.ended.map { $0 - row.started },
                    outcome: row.outcome.flatMap(Outcome.init(rawValue:)), children: build(row.id))
                activity.at = row.started
                return activity
            }
        }
        return build(nil)
    }
}
