import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// One test's attempt (its final one, by default) in a run (the newest run that has it, by
    /// default), with its failures, activity tree, captures, predicates and attachments.
    /// - Parameters:
    ///   - test: the stable test id.
    ///   - run: a run id; the newest run with the test when `nil`.
    ///   - project: only runs of this project, when given.
    ///   - attempt: this attempt (1 is the first); the highest-numbered when `nil`.
    /// - Returns: the detail of the test's attempt in that run, with the outcomes of all its
    ///   attempts there.
    /// - Throws: ``StoreError/noSuchTest(_:)`` when no run has that test (or that attempt of it).
    public func testDetail(test: String, run: String?, project: String? = nil, attempt: Int? = nil) throws
        -> TestDetail
    {
        if attempt != nil, run == nil {
            // The newest run with the test, then its attempt: not the newest run with that attempt.
            let newest = try testDetail(test: test, run: nil, project: project).run
            return try testDetail(test: test, run: newest, project: project, attempt: attempt)
        }
        return try writer.read { db in
            guard
                let result = try Row.fetchOne(
                    try db.cachedStatement(
                        sql: """
                            SELECT r.id, r.runId, r.attempt, run.uuid, r.startedAt, r.duration,
                                \(Self.attemptOutcome(result: "r", run: "run")) AS outcome, t.id AS testId,
                                t.file, t.line, t.layer
                            FROM result r JOIN test t ON t.id = r.testId JOIN run ON run.id = r.runId
                            WHERE t.key = ?1 AND (?2 IS NULL OR run.uuid = ?2) AND (?3 IS NULL OR run.project = ?3)
                                AND (?4 IS NULL OR r.attempt = ?4)
                            ORDER BY run.startedAt DESC, run.id DESC, r.attempt DESC LIMIT 1
                            """), arguments: [test, run, project, attempt])
            else { throw StoreError.noSuchTest(StoreError.naming(test, run: run, attempt: attempt)) }
            let resultID: Int64 = result["id"]
            let attempt: Int = result["attempt"]
            let attempts = try String?.fetchAll(
                try db.cachedStatement(
                    sql: """
                        SELECT \(Self.attemptOutcome(result: "r", run: "run")) FROM result r JOIN run ON run.id = r.runId
                        WHERE r.runId = ? AND r.testId = ? ORDER BY r.attempt
                        """),
                arguments: [result["runId"] as Int64, result["testId"] as Int64]
            ).map { AttemptState($0.flatMap(Outcome.init(rawValue:))) }
            var detail = TestDetail(
                test: test, run: result["uuid"], startedAt: iso8601(result["startedAt"]),
                outcome: AttemptState((result["outcome"] as String?).flatMap(Outcome.init(rawValue:))),
                duration: result["duration"], attempts: attempts, file: result["file"], line: result["line"],
                layer: (result["layer"] as String?).flatMap(Layer.init(rawValue:)),
                issues: try issues(resultID, test: test, attempt: attempt, in: db),
                activities: try activityTree(resultID, in: db),
                captures: try captures(resultID, test: test, attempt: attempt, in: db),
                predicates: try predicates(resultID, test: test, attempt: attempt, in: db))
            detail.attachments = try attachments(resultID, test: test, attempt: attempt, in: db)
            detail.attempt = attempt
            return detail
        }
    }

    private func issues(_ resultID: Int64, test: String, attempt: Int, in db: Database) throws -> [LedgerEvent.Issue] {
        try Row.fetchAll(
            try db.cachedStatement(
                sql: "SELECT at, message, file, line, kind FROM issue WHERE resultId = ? ORDER BY at, id"),
            arguments: [resultID]
        ).map {
            LedgerEvent.Issue(
                at: $0[0], test: test, attempt: attempt, message: $0[1], file: $0[2], line: $0[3],
                kind: ($0[4] as String?).flatMap(LedgerEvent.IssueKind.init(rawValue:)))
        }
    }

    private func captures(_ resultID: Int64, test: String, attempt: Int, in db: Database) throws
        -> [LedgerEvent.Capture]
    {
        try Row.fetchAll(
            try db.cachedStatement(
                sql: """
                    SELECT c.at, c.verifier, a.key, c.fields FROM capture c
                    LEFT JOIN activity a ON a.id = c.activityId WHERE c.resultId = ? ORDER BY c.at, c.id
                    """), arguments: [resultID]
        ).map {
            LedgerEvent.Capture(
                at: $0[0], test: test, attempt: attempt, verifier: $0[1], activity: $0[2],
                fields: ($0[3] as String?).flatMap { JSONValue(jsonText: $0) })
        }
    }

    private func predicates(_ resultID: Int64, test: String, attempt: Int, in db: Database) throws
        -> [LedgerEvent.Predicate]
    {
        try Row.fetchAll(
            try db.cachedStatement(
                sql: """
                    SELECT p.at, p.name, p.expect, p.held, p.attempts, p.waited, p.timeout, p.interval,
                        a.key, p.file, p.line
                    FROM predicate p LEFT JOIN activity a ON a.id = p.activityId
                    WHERE p.resultId = ? ORDER BY p.at, p.id
                    """), arguments: [resultID]
        ).map {
            LedgerEvent.Predicate(
                at: $0[0], test: test, attempt: attempt, name: $0[1],
                expect: PredicateExpectation(rawValue: $0[2]) ?? .holds, held: $0[3], attempts: $0[4],
                waited: $0[5], timeout: $0[6], interval: $0[7], activity: $0[8], file: $0[9], line: $0[10])
        }
    }

    private func attachments(_ resultID: Int64, test: String, attempt: Int, in db: Database) throws
        -> [LedgerEvent.Attachment]
    {
        try Row.fetchAll(
            try db.cachedStatement(
                sql: """
                    SELECT t.at, t.name, t.mediaType, t.size, a.key, t.path
                    FROM attachment t LEFT JOIN activity a ON a.id = t.activityId
                    WHERE t.resultId = ? ORDER BY t.at, t.id
                    """), arguments: [resultID]
        ).map {
            LedgerEvent.Attachment(
                at: $0[0], test: test, attempt: attempt, name: $0[1], mediaType: $0[2], size: $0[3],
                activity: $0[4], path: $0[5])
        }
    }

    private func activityTree(_ resultID: Int64, in db: Database) throws -> [TestDetail.ActivityDetail] {
        TestDetail.ActivityDetail.tree(
            try Row.fetchAll(
                try db.cachedStatement(
                    sql: """
                        SELECT id, parentId, name, startedAt, endedAt, outcome, key FROM activity
                        WHERE resultId = ? ORDER BY startedAt, id
                        """),
                arguments: [resultID]
            ).map {
                StoredActivity(
                    id: $0[0], parent: $0[1], name: $0[2], started: $0[3], ended: $0[4], outcome: $0[5], key: $0[6])
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
