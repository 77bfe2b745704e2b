import Foundation
import GRDB
import LedgerCore

/// The SQL that writes events into SQLite: statements taken from the connection's cache once per
/// transaction (looking them up by their SQL text for every row would cost as much as the
/// insert) and bound through ``FastStatement``.
final class StoreWrites: IngestWriting {
    let db: Database
    private var statements: [Int: Statement] = [:]
    private lazy var batch = ResultBatch(db: db, writes: self)

    init(db: Database) {
        self.db = db
    }

    func storedRun(_ uuid: String) throws -> (row: Int64, project: String)? {
        try Row.fetchOne(db, sql: "SELECT id, project FROM run WHERE uuid = ?", arguments: [uuid]).map {
            (row: $0[0], project: $0[1])
        }
    }

    func project(ofRun row: Int64) throws -> String? {
        try String.fetchOne(db, sql: "SELECT project FROM run WHERE id = ?", arguments: [row])
    }

    func queue(_ row: QueuedResult) throws -> QueuedResult.Flushed? {
        try batch.append(row)
    }

    func flushQueue() throws -> QueuedResult.Flushed {
        try batch.flush()
    }

    func storeSummary(_ summary: RunSummary, run row: Int64) throws {
        try summary.store(run: row, in: db)
    }

    func refreshSummary(run row: Int64) throws {
        try RunSummary.refresh(run: row, in: db)
    }

    /// The prepared statement for `sql`, `slot` naming it.
    private func statement(_ slot: Int, _ sql: @autoclosure () -> String) throws -> Statement {
        if let statement = statements[slot] { return statement }
        let statement = try db.cachedStatement(sql: sql())
        statements[slot] = statement
        return statement
    }

    /// Inserts the run or merges what is new into it; returns its row id.
    func upsertRun(_ uuid: String, _ start: LedgerEvent.RunStart) throws -> Int64 {
        var statement = FastStatement(
            try statement(
                1,
                """
                INSERT INTO run (uuid, project, source, startedAt, revision, branch, ciProvider,
                    ciBuild, ciJob, ciUrl, ciAttempt, host, configuration, labels)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (uuid) DO UPDATE SET
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
                RETURNING id
                """))
        statement.bind(uuid)
        statement.bind(start.project)
        statement.bind(start.source)
        statement.bind(start.at)
        statement.bind(start.revision)
        statement.bind(start.branch)
        statement.bind(start.ci?.provider)
        statement.bind(start.ci?.build)
        statement.bind(start.ci?.job)
        statement.bind(start.ci?.url)
        statement.bind(start.attempt)
        statement.bind(start.host)
        statement.bind(start.configuration ?? "")
        statement.bind(start.labels.map { JSONValue.object($0.mapValues(JSONValue.string)).jsonText })
        guard let id = try statement.step(in: db) else { throw DatabaseError(message: "run upsert returned no id") }
        return id
    }

    func endRun(_ run: Int64, _ end: LedgerEvent.RunEnd) throws {
        var statement = FastStatement(
            try statement(
                2,
                """
                UPDATE run SET endedAt = max(coalesce(endedAt, ?1), ?1),
                    outcome = coalesce(?2, outcome, 'finished'),
                    reportedTests = coalesce(?4, reportedTests),
                    reportedFailures = coalesce(?5, reportedFailures),
                    reportedErrors = coalesce(?6, reportedErrors)
                WHERE id = ?3
                """))
        statement.bind(end.at)
        statement.bind(end.outcome?.rawValue)
        statement.bind(run)
        statement.bind(end.counts?.tests)
        statement.bind(end.counts?.failures)
        statement.bind(end.counts?.errors)
        try statement.step(in: db)
    }

    /// The test's row, inserting the test or adding what `start` tells that the row lacks.
    /// - Parameter known: what this process already knows of the row; read from the store when
    ///   `nil`. Most inputs bring nothing new, and then nothing is written.
    func upsertTest(_ start: LedgerEvent.TestStart, project: String, known: KnownTests.Entry?) throws
        -> KnownTests.Entry
    {
        let columns = TestColumns(start)
        var stored = known
        if stored == nil {
            var lookup = FastStatement(
                try statement(
                    11, "SELECT id, suite, name, file, line, layer, tags FROM test WHERE project = ? AND key = ?"))
            lookup.bind(project)
            lookup.bind(start.test)
            stored = try lookup.row(in: db) { row in
                KnownTests.Entry(
                    id: row.int64(0),
                    columns: TestColumns(
                        suite: row.string(1), name: row.string(2), file: row.string(3), line: row.int(4),
                        layer: row.string(5), tags: row.string(6)))
            }
        }
        if let stored, stored.covers(columns) { return stored }
        var statement = FastStatement(
            try statement(
                3,
                """
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
                """))
        statement.bind(project)
        statement.bind(start.test)
        statement.bind(columns.suite)
        statement.bind(columns.name)
        statement.bind(columns.file)
        statement.bind(columns.line)
        statement.bind(columns.layer)
        statement.bind(columns.tags)
        guard let id = try statement.step(in: db) else { throw DatabaseError(message: "test upsert returned no id") }
        return KnownTests.Entry(id: id, columns: columns, over: stored)
    }

    /// Inserts an attempt, or completes one stored as running; `nil` when the attempt was
    /// already stored complete. `end` `nil` stores the attempt as running.
    func insertResult(
        run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?
    ) throws -> Int64? {
        // The common case, a new attempt, is a plain insert: an upsert with RETURNING costs
        // SQLite twice as much, so it runs only when the attempt was already there.
        var insert = FastStatement(
            try statement(
                4,
                """
                INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome, message)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (runId, testId, attempt) DO NOTHING
                """))
        insert.bind(run)
        insert.bind(testID)
        insert.bind(start.attempt)
        insert.bind(start.at)
        insert.bind(end.map { max(0, $0.duration) })
        insert.bind(end?.outcome.rawValue)
        insert.bind(end?.message)
        try insert.step(in: db)
        if db.changesCount > 0 { return db.lastInsertedRowID }
        guard let end else { return nil }
        var complete = FastStatement(try completeStatement())
        complete.bind(max(0, end.duration))
        complete.bind(end.outcome.rawValue)
        complete.bind(end.message)
        complete.bind(start.at)
        complete.bind(run)
        complete.bind(testID)
        complete.bind(start.attempt)
        return try complete.step(in: db)
    }

    /// Completes an attempt stored as running; its row, or `nil` when there was none to complete.
    func completeResult(_ row: ResultBatch.Row) throws -> Int64? {
        var complete = FastStatement(try completeStatement())
        complete.bind(row.duration)
        complete.bind(row.outcome)
        complete.bind(row.message)
        complete.bind(row.startedAt)
        complete.bind(row.run)
        complete.bind(row.testID)
        complete.bind(row.attempt)
        return try complete.step(in: db)
    }

    private func completeStatement() throws -> Statement {
        try statement(
            10,
            """
            UPDATE result SET duration = ?, outcome = ?, message = ?, startedAt = min(startedAt, ?)
            WHERE runId = ? AND testId = ? AND attempt = ? AND outcome IS NULL
            RETURNING id
            """)
    }

    /// Whether any attempt of `run` is stored.
    func hasResults(run: Int64) throws -> Bool {
        var statement = FastStatement(try statement(13, "SELECT 1 FROM result WHERE runId = ? LIMIT 1"))
        statement.bind(run)
        return try statement.step(in: db) != nil
    }

    /// The row of a stored attempt.
    func resultID(run: Int64, testID: Int64, attempt: Int) throws -> Int64? {
        var statement = FastStatement(
            try statement(9, "SELECT id FROM result WHERE runId = ? AND testId = ? AND attempt = ?"))
        statement.bind(run)
        statement.bind(testID)
        statement.bind(attempt)
        return try statement.step(in: db)
    }

    /// Inserts the attempt's issues, activities, captures, predicates and attachments.
    func insertDetails(of attempt: PendingAttempt, resultID: Int64, run: Int64) throws {
        for issue in attempt.issues {
            var statement = FastStatement(
                try statement(
                    5, "INSERT INTO issue (resultId, at, message, file, line, kind) VALUES (?, ?, ?, ?, ?, ?)"))
            statement.bind(resultID)
            statement.bind(issue.at)
            statement.bind(issue.message)
            statement.bind(issue.file)
            statement.bind(issue.line)
            statement.bind(issue.kind?.rawValue)
            try statement.step(in: db)
        }
        var activityIDs: [String: Int64] = [:]
        for activity in attempt.activities {
            let end = attempt.activityEnds[activity.activity]
            var statement = FastStatement(
                try statement(
                    6,
                    """
                    INSERT INTO activity (resultId, key, parentId, name, startedAt, endedAt, outcome)
                    VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                    """))
            statement.bind(resultID)
            statement.bind(activity.activity)
            statement.bind(activity.parent.flatMap { activityIDs[$0] })
            statement.bind(activity.name)
            statement.bind(activity.at)
            statement.bind(end?.at)
            statement.bind(end?.outcome?.rawValue)
            activityIDs[activity.activity] = try statement.step(in: db)
        }
        for capture in attempt.captures {
            var statement = FastStatement(
                try statement(
                    7, "INSERT INTO capture (resultId, activityId, at, verifier, fields) VALUES (?, ?, ?, ?, ?)"))
            statement.bind(resultID)
            statement.bind(capture.activity.flatMap { activityIDs[$0] })
            statement.bind(capture.at)
            statement.bind(capture.verifier)
            statement.bind(capture.fields?.jsonText)
            try statement.step(in: db)
        }
        for predicate in attempt.predicates {
            var statement = FastStatement(
                try statement(
                    8,
                    """
                    INSERT INTO predicate (resultId, runId, activityId, at, name, expect, held, attempts,
                        waited, timeout, interval, file, line)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """))
            statement.bind(resultID)
            statement.bind(run)
            statement.bind(predicate.activity.flatMap { activityIDs[$0] })
            statement.bind(predicate.at)
            statement.bind(predicate.name)
            statement.bind(predicate.expect.rawValue)
            statement.bind(predicate.held)
            statement.bind(predicate.attempts)
            statement.bind(predicate.waited)
            statement.bind(predicate.timeout)
            statement.bind(predicate.interval)
            statement.bind(predicate.file)
            statement.bind(predicate.line)
            try statement.step(in: db)
        }
        for attachment in attempt.attachments {
            var statement = FastStatement(
                try statement(
                    12,
                    """
                    INSERT INTO attachment (resultId, activityId, at, name, mediaType, size, path)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """))
            statement.bind(resultID)
            statement.bind(attachment.activity.flatMap { activityIDs[$0] })
            statement.bind(attachment.at)
            statement.bind(attachment.name)
            statement.bind(attachment.mediaType)
            statement.bind(attachment.size)
            statement.bind(attachment.path)
            try statement.step(in: db)
        }
    }
}
