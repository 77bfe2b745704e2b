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
    /// Stores the run's end.
    func endRun(_ row: Int64, _ end: LedgerEvent.RunEnd) throws
    /// The test's row, inserting the test or adding what `start` tells that the row lacks.
    /// - Parameter known: what this process already knows of the row; read from the store when `nil`.
    func upsertTest(_ start: LedgerEvent.TestStart, project: String, known: KnownTests.Entry?) throws
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
    /// Queues a finished attempt with no details; returns what was written when the queue filled up.
    func queue(_ row: QueuedResult) throws -> QueuedResult.Flushed?
    /// Writes the queued attempts.
    func flushQueue() throws -> QueuedResult.Flushed
    /// Stores `summary` as the summary of the run at `row`.
    func storeSummary(_ summary: RunSummary, run row: Int64) throws
    /// Rewrites the summary of the run at `row` from its stored results.
    func refreshSummary(run row: Int64) throws
}

/// A finished attempt with nothing inside it (no issue, activity, capture, predicate or
/// attachment): the bulk of any run, written many at a time.
package struct QueuedResult: Sendable {
    package var run: Int64
    package var testID: Int64
    package var attempt: Int
    package var startedAt: Double
    package var duration: Double
    package var outcome: String
    package var message: String?

    /// What writing queued attempts did: rows inserted, running rows completed, rows already stored.
    package struct Flushed: Sendable {
        package var inserted = 0
        package var completed = 0
        package var alreadyStored = 0

        package init(inserted: Int = 0, completed: Int = 0, alreadyStored: Int = 0) {
            self.inserted = inserted
            self.completed = completed
            self.alreadyStored = alreadyStored
        }

        /// Counts `other` too.
        package mutating func add(_ other: Flushed) {
            inserted += other.inserted
            completed += other.completed
            alreadyStored += other.alreadyStored
        }
    }

    /// The attempt's start and end events, for writing it one at a time.
    package var events: (start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd) {
        (
            LedgerEvent.TestStart(at: startedAt, test: "", attempt: attempt),
            LedgerEvent.TestEnd(
                at: startedAt + duration, test: "", attempt: attempt, outcome: Outcome(rawValue: outcome) ?? .crashed,
                duration: duration, message: message)
        )
    }
}
