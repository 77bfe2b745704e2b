import Foundation
import GRDB
import LedgerCore

/// The SQL that writes events: cached statements, one per kind of row.
enum StoreWrites {
    static func upsertRun(_ run: String, _ start: LedgerEvent.RunStart, in db: Database) throws {
        let labels = start.labels.map { labels in
            JSONValue.object(labels.mapValues(JSONValue.string)).jsonText
        }
        let values: [(any DatabaseValueConvertible)?] = [
            run, start.project, start.source, start.at, start.revision, start.branch,
            start.ci?.provider, start.ci?.build, start.ci?.job, start.ci?.url, start.attempt,
            start.host, start.configuration ?? "", labels,
        ]
        try db.cachedStatement(
            sql: """
                INSERT INTO run (id, project, source, startedAt, revision, branch, ciProvider,
                    ciBuild, ciJob, ciUrl, ciAttempt, host, configuration, labels)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    startedAt = min(startedAt, excluded.startedAt),
                    revision = coalesce(revision, excluded.revision),
                    branch = coalesce(branch, excluded.branch),
                    ciProvider = coalesce(ciProvider, excluded.ciProvider),
                    ciBuild = coalesce(ciBuild, excluded.ciBuild),
                    ciJob = coalesce(ciJob, excluded.ciJob),
                    ciUrl = coalesce(ciUrl, excluded.ciUrl),
                    ciAttempt = coalesce(ciAttempt, excluded.ciAttempt),
                    host = coalesce(host, excluded.host),
                    configuration = CASE WHEN configuration = '' THEN excluded.configuration
                        ELSE configuration END,
                    labels = coalesce(labels, excluded.labels)
                """
        ).execute(arguments: StatementArguments(values))
    }

    static func endRun(_ run: String, _ end: LedgerEvent.RunEnd, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE run SET endedAt = max(coalesce(endedAt, ?), ?),
                    outcome = coalesce(?, outcome, 'finished')
                WHERE id = ?
                """
        ).execute(arguments: [end.at, end.at, end.outcome, run])
    }

    /// Inserts or refreshes the test's row and returns its id.
    static func upsertTest(_ start: LedgerEvent.TestStart, project: String, in db: Database)
        throws -> Int64
    {
        let tags = start.tags.map { JSONValue.array($0.map(JSONValue.string)).jsonText }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO test (project, key, suite, name, file, line, layer, tags)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (project, key) DO UPDATE SET
                    suite = coalesce(excluded.suite, suite),
                    name = coalesce(excluded.name, name),
                    file = coalesce(excluded.file, file),
                    line = coalesce(excluded.line, line),
                    layer = coalesce(excluded.layer, layer),
                    tags = coalesce(excluded.tags, tags)
                RETURNING id
                """)
        let arguments: StatementArguments = [
            project, start.test, start.suite, start.name, start.file, start.line,
            start.layer?.rawValue, tags,
        ]
        guard let id = try Int64.fetchOne(statement, arguments: arguments) else {
            throw DatabaseError(message: "test upsert returned no id")
        }
        return id
    }

    /// Inserts a finished attempt, or completes one stored as running; `nil` when the attempt
    /// was already stored complete.
    static func insertResult(
        run: String, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd,
        in db: Database
    ) throws -> Int64? {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome, message)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (runId, testId, attempt) DO UPDATE SET
                    duration = excluded.duration, outcome = excluded.outcome,
                    message = excluded.message
                WHERE result.outcome IS NULL
                RETURNING id
                """)
        return try Int64.fetchOne(
            statement,
            arguments: [
                run, testID, start.attempt, start.at, max(0, end.duration), end.outcome.rawValue,
                end.message,
            ])
    }

    /// Inserts the attempt's issues, activities, captures and predicates.
    static func insertDetails(of attempt: PendingAttempt, resultID: Int64, in db: Database) throws {
        for issue in attempt.issues {
            try db.cachedStatement(
                sql: "INSERT INTO issue (resultId, at, message, file, line, kind) VALUES (?, ?, ?, ?, ?, ?)"
            ).execute(
                arguments: [resultID, issue.at, issue.message, issue.file, issue.line, issue.kind?.rawValue])
        }
        var activityIDs: [String: Int64] = [:]
        for activity in attempt.activities {
            let end = attempt.activityEnds[activity.activity]
            try db.cachedStatement(
                sql: """
                    INSERT INTO activity (resultId, key, parentId, name, startedAt, endedAt, outcome)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    resultID, activity.activity, activity.parent.flatMap { activityIDs[$0] },
                    activity.name, activity.at, end?.at, end?.outcome?.rawValue,
                ])
            activityIDs[activity.activity] = db.lastInsertedRowID
        }
        for capture in attempt.captures {
            try db.cachedStatement(
                sql: "INSERT INTO capture (resultId, activityId, at, verifier, fields) VALUES (?, ?, ?, ?, ?)"
            ).execute(
                arguments: [
                    resultID, capture.activity.flatMap { activityIDs[$0] }, capture.at,
                    capture.verifier, capture.fields?.jsonText,
                ])
        }
        for predicate in attempt.predicates {
            try db.cachedStatement(
                sql: """
                    INSERT INTO predicate (resultId, activityId, at, name, expect, held, attempts,
                        waited, timeout, interval, file, line)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    resultID, predicate.activity.flatMap { activityIDs[$0] }, predicate.at,
                    predicate.name, predicate.expect.rawValue, predicate.held, predicate.attempts,
                    predicate.waited, predicate.timeout, predicate.interval, predicate.file,
                    predicate.line,
                ])
        }
    }
}
