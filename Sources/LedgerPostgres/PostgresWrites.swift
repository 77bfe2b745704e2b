import Foundation
import LedgerCore
import LedgerStore
import PostgresNIO

/// The SQL that writes events into PostgreSQL, inside the one transaction of an ingest.
///
/// Concurrent ingests, from one server or several, stay apart by the database's own locks: a run's
/// row stays locked from the moment an ingest first touches it until it commits, so ingests into
/// one run take turns and each sees what the one before it stored. A test's row is created (or
/// completed) by a statement committed on its own, on a pool of its own: ingests never hold one
/// another's new tests, so they neither wait for each other's commits nor deadlock, and a test
/// row may outlive an ingest that rolled back, with no results. Uniqueness is the tables' own
/// constraints.
final class PostgresWrites: IngestWriting {
    let session: PostgresSession
    let testsClient: PostgresClient
    private var queued: [QueuedResult] = []
    /// Queued attempts written but not yet counted by the sink, which counts what ``queue(_:)``
    /// and ``flushQueue()`` return.
    private var written = QueuedResult.Flushed()
    /// Each project's stored tests, read in one statement the first time a test is not known.
    private var projectTests: [String: [String: KnownTests.Entry]] = [:]
    /// Runs that had no results when this ingest locked them, and the attempts written into them
    /// since: a new attempt of such a run cannot be there already, so it is copied in bulk.
    private var freshRuns: [Int64: Set<AttemptKey>] = [:]
    /// New attempts with details of fresh runs, copied in bulk before any statement could miss them.
    private var deferred = DeferredAttempts()
    static let rowsPerBatch = 250

    private struct AttemptKey: Hashable {
        var test: Int64
        var attempt: Int
    }

    init(session: PostgresSession, testsClient: PostgresClient) {
        self.session = session
        self.testsClient = testsClient
    }

    func upsertRun(_ uuid: String, _ start: LedgerEvent.RunStart) throws -> Int64 {
        let labels = start.labels.map { JSONValue.object($0.mapValues(JSONValue.string)).jsonText }
        let query: PostgresQuery = """
            INSERT INTO run AS r (uuid, project, source, startedAt, revision, branch, ciProvider,
                ciBuild, ciJob, ciUrl, ciAttempt, host, configuration, labels)
            VALUES (\(uuid), \(start.project), \(start.source), \(start.at), \(start.revision), \(start.branch),
                \(start.ci?.provider), \(start.ci?.build), \(start.ci?.job), \(start.ci?.url), \(start.attempt),
                \(start.host), \(start.configuration ?? ""), \(labels))
            ON CONFLICT (uuid) DO UPDATE SET
                startedAt = least(r.startedAt, excluded.startedAt),
                revision = coalesce(r.revision, excluded.revision),
                branch = coalesce(r.branch, excluded.branch),
                ciProvider = coalesce(r.ciProvider, excluded.ciProvider),
                ciBuild = coalesce(r.ciBuild, excluded.ciBuild),
                ciJob = coalesce(r.ciJob, excluded.ciJob),
                ciUrl = coalesce(r.ciUrl, excluded.ciUrl),
                ciAttempt = coalesce(r.ciAttempt, excluded.ciAttempt),
                host = coalesce(r.host, excluded.host),
                configuration = CASE WHEN r.configuration = '' THEN excluded.configuration
                    ELSE r.configuration END,
                labels = coalesce(r.labels, excluded.labels)
            RETURNING id
            """
        guard let id = try session.value(query, as: Int64.self) else {
            throw StoreError.refused(location: "run \(uuid)", reason: "the run's upsert returned no row")
        }
        return id
    }

    func storedRun(_ uuid: String) throws -> (row: Int64, project: String)? {
        try session.rows("SELECT id, project FROM run WHERE uuid = \(uuid) FOR UPDATE").first.map {
            try $0.decode((Int64, String).self)
        }
    }

    func project(ofRun row: Int64) throws -> String? {
        try session.value("SELECT project FROM run WHERE id = \(row)")
    }

    /// Asked once the run's row is locked, by a statement of its own: one that began before the
    /// lock was granted would not see what the ingest that held it stored.
    func hasResults(run row: Int64) throws -> Bool {
        let has = try session.value("SELECT EXISTS (SELECT 1 FROM result WHERE runId = \(row))") ?? false
        if !has { freshRuns[row] = freshRuns[row] ?? [] }
        return has
    }

    func endRun(_ row: Int64, _ end: LedgerEvent.RunEnd) throws {
        // The run's last attempts join the `COPY` under way before the statement ends it.
        written.add(try writeQueued())
        try session.send(
            """
            UPDATE run SET endedAt = greatest(coalesce(endedAt, \(end.at)), \(end.at)),
                outcome = coalesce(\(end.outcome?.rawValue), outcome, 'finished'),
                reportedTests = coalesce(\(end.counts?.tests), reportedTests),
                reportedFailures = coalesce(\(end.counts?.failures), reportedFailures),
                reportedErrors = coalesce(\(end.counts?.errors), reportedErrors)
            WHERE id = \(row)
            """)
    }

    func upsertTest(_ start: LedgerEvent.TestStart, project: String, known: KnownTests.Entry?) throws
        -> KnownTests.Entry
    {
        let columns = TestColumns(start)
        var stored = known
        if stored == nil {
            stored = try storedTest(project: project, key: start.test)
        }
        if let stored, stored.covers(columns) { return stored }
        let query: PostgresQuery = """
            INSERT INTO test AS t (project, key, suite, name, file, line, layer, tags)
            VALUES (\(project), \(start.test), \(columns.suite), \(columns.name), \(columns.file),
                \(columns.line), \(columns.layer), \(columns.tags))
            ON CONFLICT (project, key) DO UPDATE SET
                suite = coalesce(excluded.suite, t.suite),
                name = coalesce(excluded.name, t.name),
                file = coalesce(excluded.file, t.file),
                line = coalesce(excluded.line, t.line),
                layer = coalesce(excluded.layer, t.layer),
                tags = coalesce(excluded.tags, t.tags)
            RETURNING id
            """
        let client = testsClient
        let rows: [PostgresRow]
        do {
            rows = try waitFor { try await client.query(query, logger: PostgresLedger.logger).collect() }
        } catch let error as PSQLError {
            throw PostgresLedger.storeError(error, location: session.location)
        }
        guard let id = try rows.first?.decode(Int64.self) else {
            throw StoreError.refused(location: "test \(start.test)", reason: "the test's upsert returned no row")
        }
        let entry = KnownTests.Entry(id: id, columns: columns, over: stored)
        projectTests[project]?[start.test] = entry
        return entry
    }

    /// The stored row of a test, from the project's tests read in one statement.
    private func storedTest(project: String, key: String) throws -> KnownTests.Entry? {
        if let tests = projectTests[project] { return tests[key] }
        var tests: [String: KnownTests.Entry] = [:]
        for row in try session.rows(
            "SELECT id, key, suite, name, file, line, layer, tags FROM test WHERE project = \(project)")
        {
            let (id, key, suite, name, file, line, layer, tags) = try row.decode(
                (Int64, String, String?, String?, String?, Int?, String?, String?).self)
            tests[key] = KnownTests.Entry(
                id: id, columns: TestColumns(suite: suite, name: name, file: file, line: line, layer: layer, tags: tags)
            )
        }
        projectTests[project] = tests
        return tests[key]
    }

    func insertResult(run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?) throws
        -> Int64?
    {
        if freshRuns[run]?.insert(AttemptKey(test: testID, attempt: start.attempt)).inserted == true {
            return try deferred.result(run: run, testID: testID, start: start, end: end, ids: testsClient)
        }
        try writeDeferred()
        let duration = end.map { max(0, $0.duration) }
        if let inserted = try session.value(
            """
            INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome, message)
            VALUES (\(run), \(testID), \(start.attempt), \(start.at), \(duration), \(end?.outcome.rawValue),
                \(end?.message))
            ON CONFLICT (runId, testId, attempt) DO NOTHING RETURNING id
            """, as: Int64.self)
        {
            return inserted
        }
        guard let end else { return nil }
        return try session.value(
            """
            UPDATE result SET duration = \(max(0, end.duration)), outcome = \(end.outcome.rawValue),
                message = \(end.message), startedAt = least(startedAt, \(start.at))
            WHERE runId = \(run) AND testId = \(testID) AND attempt = \(start.attempt) AND outcome IS NULL
            RETURNING id
            """, as: Int64.self)
    }

    func resultID(run: Int64, testID: Int64, attempt: Int) throws -> Int64? {
        try writeDeferred()
        return try session.value(
            "SELECT id FROM result WHERE runId = \(run) AND testId = \(testID) AND attempt = \(attempt)")
    }

    func insertDetails(of attempt: PendingAttempt, resultID: Int64, run: Int64) throws {
        if deferred.holds(result: resultID) {
            try deferred.details(of: attempt, result: resultID, run: run, ids: testsClient)
            if deferred.count >= Self.rowsPerBatch { try writeDeferred() }
            return
        }
        for issue in attempt.issues {
            try session.run(
                """
                INSERT INTO issue (resultId, at, message, file, line, kind)
                VALUES (\(resultID), \(issue.at), \(issue.message), \(issue.file), \(issue.line),
                    \(issue.kind?.rawValue))
                """)
        }
        var activityIDs: [String: Int64] = [:]
        for activity in attempt.activities {
            let end = attempt.activityEnds[activity.activity]
            activityIDs[activity.activity] = try session.value(
                """
                INSERT INTO activity (resultId, key, parentId, name, startedAt, endedAt, outcome)
                VALUES (\(resultID), \(activity.activity), \(activity.parent.flatMap { activityIDs[$0] }),
                    \(activity.name), \(activity.at), \(end?.at), \(end?.outcome?.rawValue))
                RETURNING id
                """, as: Int64.self)
        }
        for capture in attempt.captures {
            try session.run(
                """
                INSERT INTO capture (resultId, activityId, at, verifier, fields)
                VALUES (\(resultID), \(capture.activity.flatMap { activityIDs[$0] }), \(capture.at),
                    \(capture.verifier), \(capture.fields?.jsonText))
                """)
        }
        for predicate in attempt.predicates {
            try session.run(
                """
                INSERT INTO predicate (resultId, runId, activityId, at, name, expect, held, attempts,
                    waited, timeout, interval, file, line)
                VALUES (\(resultID), \(run), \(predicate.activity.flatMap { activityIDs[$0] }), \(predicate.at),
                    \(predicate.name), \(predicate.expect.rawValue), \(predicate.held ? 1 : 0), \(predicate.attempts),
                    \(predicate.waited), \(predicate.timeout), \(predicate.interval), \(predicate.file),
                    \(predicate.line))
                """)
        }
        for attachment in attempt.attachments {
            try session.run(
                """
                INSERT INTO attachment (resultId, activityId, at, name, mediaType, size, path)
                VALUES (\(resultID), \(attachment.activity.flatMap { activityIDs[$0] }), \(attachment.at),
                    \(attachment.name), \(attachment.mediaType), \(attachment.size), \(attachment.path))
                """)
        }
    }

    func queue(_ row: QueuedResult) throws -> QueuedResult.Flushed? {
        queued.append(row)
        guard queued.count >= Self.rowsPerBatch else { return nil }
        written.add(try writeQueued())
        return takeWritten()
    }

    /// Writes the queued attempts and the deferred ones: the ingest's input is over.
    func flushQueue() throws -> QueuedResult.Flushed {
        written.add(try writeQueued())
        try writeDeferred()
        return takeWritten()
    }

    /// What was written of the queue since the sink was last told.
    private func takeWritten() -> QueuedResult.Flushed {
        defer { written = QueuedResult.Flushed() }
        return written
    }

    /// Writes the queued attempts: new attempts of fresh runs with `COPY`, the others in one
    /// statement from arrays, where those already there are completed when stored as running,
    /// else left as they were.
    private func writeQueued() throws -> QueuedResult.Flushed {
        defer { queued.removeAll(keepingCapacity: true) }
        var copied: [QueuedResult] = []
        var rows: [QueuedResult] = []
        for row in queued {
            if freshRuns[row.run]?.insert(AttemptKey(test: row.testID, attempt: row.attempt)).inserted == true {
                copied.append(row)
            } else {
                rows.append(row)
            }
        }
        try copy(copied)
        guard !rows.isEmpty else { return QueuedResult.Flushed(inserted: copied.count) }
        try writeDeferred()
        var flushed = try insertOrComplete(rows)
        flushed.inserted += copied.count
        return flushed
    }

    /// `COPY`s the deferred attempts and their details, before any statement that could miss them.
    private func writeDeferred() throws {
        for pending in deferred.take() {
            try session.copy(pending.rows.buffer, into: pending.table, columns: pending.columns)
        }
    }

    /// `COPY`s rows that cannot be stored already.
    private func copy(_ rows: [QueuedResult]) throws {
        guard !rows.isEmpty else { return }
        var text = CopyText()
        for row in rows {
            text.append(row.run)
            text.append(row.testID)
            text.append(row.attempt)
            text.append(row.startedAt)
            text.append(row.duration)
            text.append(row.outcome)
            text.append(row.message, last: true)
        }
        try session.copy(
            text.buffer, into: "result",
            columns: ["runid", "testid", "attempt", "startedat", "duration", "outcome", "message"])
    }

    private func insertOrComplete(_ rows: [QueuedResult]) throws -> QueuedResult.Flushed {
        guard !rows.isEmpty else { return QueuedResult.Flushed() }
        let inserted = try session.rows(
            """
            INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome, message)
            SELECT runId, testId, attempt, startedAt, duration, outcome,
                CASE WHEN hasMessage THEN message END
            FROM unnest(\(rows.map(\.run)), \(rows.map(\.testID)), \(rows.map(\.attempt)),
                \(rows.map(\.startedAt)), \(rows.map(\.duration)), \(rows.map(\.outcome)),
                \(rows.map { $0.message ?? "" }), \(rows.map { $0.message != nil }))
                AS queued(runId, testId, attempt, startedAt, duration, outcome, message, hasMessage)
            ON CONFLICT (runId, testId, attempt) DO NOTHING
            RETURNING 1
            """
        ).count
        var flushed = QueuedResult.Flushed(inserted: inserted)
        guard inserted < rows.count else { return flushed }
        flushed.completed = try session.rows(
            """
            UPDATE result SET duration = queued.duration, outcome = queued.outcome,
                message = CASE WHEN queued.hasMessage THEN queued.message END,
                startedAt = least(result.startedAt, queued.startedAt)
            FROM unnest(\(rows.map(\.run)), \(rows.map(\.testID)), \(rows.map(\.attempt)),
                \(rows.map(\.startedAt)), \(rows.map(\.duration)), \(rows.map(\.outcome)),
                \(rows.map { $0.message ?? "" }), \(rows.map { $0.message != nil }))
                AS queued(runId, testId, attempt, startedAt, duration, outcome, message, hasMessage)
            WHERE result.runId = queued.runId AND result.testId = queued.testId
                AND result.attempt = queued.attempt AND result.outcome IS NULL
            RETURNING 1
            """
        ).count
        flushed.alreadyStored = rows.count - flushed.inserted - flushed.completed
        return flushed
    }

    func storeSummary(_ summary: RunSummary, run row: Int64) throws {
        try session.send(
            """
            INSERT INTO run_summary (runId, tests, failed, outcomes, seconds)
            VALUES (\(row), \(summary.tests), \(summary.failed), \(Data(summary.outcomes)), \(Data(summary.seconds)))
            ON CONFLICT (runId) DO UPDATE SET tests = excluded.tests, failed = excluded.failed,
                outcomes = excluded.outcomes, seconds = excluded.seconds
            """)
    }

    func refreshSummary(run row: Int64) throws {
        try writeDeferred()
        try storeSummary(Self.readSummary(run: row, in: session), run: row)
    }

    /// Summarises the run's stored results.
    static func readSummary(run row: Int64, in session: PostgresSession) throws -> RunSummary {
        var builder = RunSummary.Builder()
        for result in try session.rows(
            "SELECT testId, outcome, coalesce(duration, 0) FROM result WHERE runId = \(row) ORDER BY testId, attempt")
        {
            let (test, outcome, seconds) = try result.decode((Int64, String?, Double).self)
            builder.add(testID: test, outcome: outcome.flatMap(Outcome.init(rawValue:)) ?? .crashed, seconds: seconds)
        }
        return builder.finish()
    }
}
