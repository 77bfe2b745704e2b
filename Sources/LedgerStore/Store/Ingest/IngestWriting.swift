import LedgerCore

/// What ``StoreSink`` needs of a store to write events: one implementation per database, each
/// working inside the one transaction an ingest is.
package protocol IngestWriting: AnyObject {
    /// Inserts the run or merges what is new into it, and holds it for the rest of the transaction
    /// where the database could let another writer in; returns its row.
    func upsertRun(_ uuid: String, _ start: LedgerEvent.RunStart) throws -> Int64
    /// A stored run's row and project, held as ``upsertRun(_:_:)`` holds it; `nil` when not stored.
    func storedRun(_ uuid: String) throws -> (row: Int64, project: String)?
    /// The project of the run at `row`.
    func project(ofRun row: Int64) throws -> String?
    /// Whether any attempt of the run at `row` is stored.
    func hasResults(run row: Int64) throws -> Bool
    /// Stores a test target of the run at `row`, over what a `target` event stored for it before.
    func storeTarget(_ row: Int64, _ target: LedgerEvent.TargetRun) throws
    /// Stores the run's end.
    func endRun(_ row: Int64, _ end: LedgerEvent.RunEnd) throws
    /// The stored row of the test `key` of `project`; `nil` when the test is not stored.
    func storedTest(project: String, key: String) throws -> KnownTests.Entry?
    /// Inserts the test, or stores what it gives over its row.
    /// - Parameters:
    ///   - test: the test's row.
    ///   - columns: the columns `test` gives.
    ///   - stored: the row as it was, when there was one.
    /// - Returns: the row as stored.
    /// - Throws: any database error.
    func writeTest(_ test: StoredRows.Test, columns: TestColumns, over stored: KnownTests.Entry?) throws
        -> KnownTests.Entry
    /// Inserts an attempt, or completes one stored as running; `nil` when the attempt was already
    /// stored complete. `end` `nil` stores the attempt as running. A store may hold the row and
    /// write it later in the transaction, before any statement that could miss it.
    func insertResult(run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?) throws
        -> Int64?
    /// The row of a stored attempt.
    func resultID(run: Int64, testID: Int64, attempt: Int) throws -> Int64?
    /// Inserts the attempt's issues, activities, captures, predicates and attachments.
    func insertDetails(of attempt: PendingAttempt, resultID: Int64, run: Int64) throws
    /// Queues a finished attempt with nothing inside it (no issue, activity, capture, predicate or
    /// attachment), the bulk of any run, written many at a time; returns what was written when the
    /// queue filled up.
    func queue(_ row: consuming StoredRows.Result) throws -> FlushedResults?
    /// Writes the queued attempts.
    func flushQueue() throws -> FlushedResults
    /// Stores `summary` as the summary of the run at `row`.
    func storeSummary(_ summary: RunSummary, run row: Int64) throws
    /// Rewrites the summary of the run at `row` from its stored results.
    func refreshSummary(run row: Int64) throws
}

extension IngestWriting {
    /// The test's row, inserting the test or adding what `start` tells that the row lacks.
    /// - Parameters:
    ///   - start: the test's start.
    ///   - project: its project.
    ///   - known: what this process already knows of the row; read from the store when `nil`. Most
    ///     inputs bring nothing new, and then nothing is written.
    /// - Returns: the row as stored.
    /// - Throws: any database error.
    func upsertTest(_ start: LedgerEvent.TestStart, project: String, known: KnownTests.Entry?) throws
        -> KnownTests.Entry
    {
        let test = StoredRows.Test(project: project, start: start)
        let columns = TestColumns(test)
        let stored = try known ?? storedTest(project: project, key: start.test)
        if let stored, stored.covers(columns) { return stored }
        return try writeTest(test, columns: columns, over: stored)
    }
}

/// What writing queued attempts did: rows inserted, running rows completed, rows already stored.
package struct FlushedResults: Sendable {
    package var inserted = 0
    package var completed = 0
    package var alreadyStored = 0

    package init(inserted: Int = 0, completed: Int = 0, alreadyStored: Int = 0) {
        self.inserted = inserted
        self.completed = completed
        self.alreadyStored = alreadyStored
    }

    /// Counts `other` too.
    package mutating func add(_ other: FlushedResults) {
        inserted += other.inserted
        completed += other.completed
        alreadyStored += other.alreadyStored
    }
}
