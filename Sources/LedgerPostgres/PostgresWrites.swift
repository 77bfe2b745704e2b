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
    private var queued: [StoredRows.Result] = []
    /// Queued attempts written but not yet counted by the sink, which counts what ``queue(_:)``
    /// and ``flushQueue()`` return.
    private var written = FlushedResults()
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
        let query = StoredRows.Run(uuid: uuid, start: start).query(PostgresStatement.upsertRun)
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
        let row = StoredRows.RunEnd(run: row, end: end)
        try session.send(row.query(PostgresStatement.endRun, columns: StoredRows.RunEnd.updateColumns))
    }

    func storeTarget(_ row: Int64, _ target: LedgerEvent.TargetRun) throws {
        try session.send(StoredRows.TargetRun(run: row, target: target).query(PostgresStatement.upsertTarget))
    }

    func writeTest(_ test: StoredRows.Test, columns: TestColumns, over stored: KnownTests.Entry?) throws
        -> KnownTests.Entry
    {
        let query = test.query(PostgresStatement.upsertTest)
        let client = testsClient
        let rows: [PostgresRow]
        do {
            rows = try waitFor { try await client.query(query, logger: PostgresLedger.logger).collect() }
        } catch let error as PSQLError {
            throw PostgresLedger.storeError(error, location: session.location)
        }
        guard let id = try rows.first?.decode(Int64.self) else {
            throw StoreError.refused(location: "test \(test.start.test)", reason: "the test's upsert returned no row")
        }
        let entry = KnownTests.Entry(id: id, columns: columns, over: stored)
        projectTests[test.project]?[test.start.test] = entry
        return entry
    }

    /// The stored row of a test, from the project's tests read in one statement.
    func storedTest(project: String, key: String) throws -> KnownTests.Entry? {
        if let tests = projectTests[project] { return tests[key] }
        var tests: [String: KnownTests.Entry] = [:]
        let fields = StoredRows.Test.fields
        for row in try session.rows(PostgresStatement.storedTests(project: project)) {
            let cells = row.makeRandomAccess()
            tests[try cells[1].decode(String.self)] = KnownTests.Entry(
                id: try cells[0].decode(Int64.self),
                columns: TestColumns(values: try fields.indices.map { try cells[$0 + 2].storedValue(fields[$0].type) }))
        }
        projectTests[project] = tests
        return tests[key]
    }

    func insertResult(run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?) throws
        -> Int64?
    {
        let row = StoredRows.Result(run: run, testID: testID, start: start, end: end)
        if freshRuns[run]?.insert(AttemptKey(test: testID, attempt: start.attempt)).inserted == true {
            return try deferred.result(row, ids: testsClient)
        }
        try writeDeferred()
        if let inserted = try session.value(
            row.query(PostgresStatement.insertResult), as: Int64.self)
        {
            return inserted
        }
        guard end != nil else { return nil }
        return try session.value(
            row.query(PostgresStatement.completeResult, columns: StoredRows.Result.updateColumns),
            as: Int64.self)
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
                StoredRows.Issue(result: resultID, issue: issue).query(PostgresStatement.insertIssue))
        }
        var activityIDs: [String: Int64] = [:]
        for activity in attempt.activities {
            let row = StoredRows.Activity(
                result: resultID, start: activity, parent: activity.parent.flatMap { activityIDs[$0] },
                end: attempt.activityEnds[activity.activity])
            activityIDs[activity.activity] = try session.value(
                row.query(PostgresStatement.insertActivity), as: Int64.self)
        }
        for capture in attempt.captures {
            let row = StoredRows.Capture(
                result: resultID, activity: capture.activity.flatMap { activityIDs[$0] }, capture: capture)
            try session.run(row.query(PostgresStatement.insertCapture))
        }
        for predicate in attempt.predicates {
            let row = StoredRows.Predicate(
                result: resultID, run: run, activity: predicate.activity.flatMap { activityIDs[$0] },
                predicate: predicate)
            try session.run(row.query(PostgresStatement.insertPredicate))
        }
        for attachment in attempt.attachments {
            let row = StoredRows.Attachment(
                result: resultID, activity: attachment.activity.flatMap { activityIDs[$0] }, attachment: attachment)
            try session.run(row.query(PostgresStatement.insertAttachment))
        }
    }

    func queue(_ row: consuming StoredRows.Result) throws -> FlushedResults? {
        queued.append(consume row)
        guard queued.count >= Self.rowsPerBatch else { return nil }
        written.add(try writeQueued())
        return takeWritten()
    }

    /// Writes the queued attempts and the deferred ones: the ingest's input is over.
    func flushQueue() throws -> FlushedResults {
        written.add(try writeQueued())
        try writeDeferred()
        return takeWritten()
    }

    /// What was written of the queue since the sink was last told.
    private func takeWritten() -> FlushedResults {
        defer { written = FlushedResults() }
        return written
    }

    /// Writes the queued attempts: new attempts of fresh runs with `COPY`, the others in one
    /// statement from arrays, where those already there are completed when stored as running,
    /// else left as they were.
    private func writeQueued() throws -> FlushedResults {
        defer { queued.removeAll(keepingCapacity: true) }
        var copied: [StoredRows.Result] = []
        var rows: [StoredRows.Result] = []
        for row in queued {
            if freshRuns[row.run]?.insert(AttemptKey(test: row.testID, attempt: row.attempt)).inserted == true {
                copied.append(row)
            } else {
                rows.append(row)
            }
        }
        try copy(copied)
        guard !rows.isEmpty else { return FlushedResults(inserted: copied.count) }
        try writeDeferred()
        var flushed = try insertOrComplete(rows)
        flushed.inserted += copied.count
        return flushed
    }

    /// `COPY`s the deferred attempts and their details, before any statement that could miss them.
    private func writeDeferred() throws {
        for pending in deferred.take() {
            try session.copy(pending.rows, into: pending.table, columns: pending.columns)
        }
    }

    /// `COPY`s rows that cannot be stored already.
    private func copy(_ rows: [StoredRows.Result]) throws {
        guard !rows.isEmpty else { return }
        var text = CopyText()
        for row in rows { text.append(row) }
        try session.copy(text.buffer, into: StoredRows.Result.table, columns: Self.resultColumns)
    }

    private static let resultColumns = StoredRows.Result.copyColumns()

    private func insertOrComplete(_ rows: [StoredRows.Result]) throws -> FlushedResults {
        guard !rows.isEmpty else { return FlushedResults() }
        let source = UnnestedRows(rows)
        let inserted = try session.rows(
            source.query(StoredRows.Result.insertSQL(from: source, conflict: .ignore, returning: "1"))
        ).count
        var flushed = FlushedResults(inserted: inserted)
        guard inserted < rows.count else { return flushed }
        flushed.completed = try session.rows(
            source.query(StoredRows.Result.updateSQL(from: source, where: "result.outcome IS NULL", returning: "1"))
        ).count
        flushed.alreadyStored = rows.count - flushed.inserted - flushed.completed
        return flushed
    }

    func storeSummary(_ summary: RunSummary, run row: Int64) throws {
        try session.send(
            """
            INSERT INTO run_summary (runId, tests, failed, outcomes, seconds, concurrent, load)
            VALUES (
                \(row), \(summary.tests), \(summary.failed), \(Data(summary.outcomes)), \(Data(summary.seconds)),
                \(summary.concurrent), \(summary.load))
            ON CONFLICT (runId) DO UPDATE SET tests = excluded.tests, failed = excluded.failed,
                outcomes = excluded.outcomes, seconds = excluded.seconds, concurrent = excluded.concurrent,
                load = excluded.load
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
            """
            SELECT testId, outcome, coalesce(duration, 0), startedAt, duration, load FROM result WHERE runId = \(row)
            ORDER BY testId, attempt
            """)
        {
            let (test, outcome, seconds, startedAt, duration, load) = try result.decode(
                (Int64, String?, Double, Double, Double?, Double?).self)
            builder.add(
                testID: test, outcome: outcome.flatMap(Outcome.init(rawValue:)) ?? .crashed, seconds: seconds,
                startedAt: startedAt, duration: duration, load: load)
        }
        return builder.finish()
    }
}
