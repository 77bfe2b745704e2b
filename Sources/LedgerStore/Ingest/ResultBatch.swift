import GRDB
import LedgerCore

/// Finished attempts with nothing inside them (no issue, activity, capture or predicate) — the
/// bulk of any run — inserted many rows per statement: one statement per row would spend more
/// in SQLite's per-statement work than in the inserts themselves.
final class ResultBatch {
    typealias Row = QueuedResult
    typealias Flushed = QueuedResult.Flushed

    static let rowsPerStatement = 64
    private let db: Database
    private let writes: StoreWrites
    private var rows: [Row] = []
    private var bulkInsert: Statement?

    init(db: Database, writes: StoreWrites) {
        self.db = db
        self.writes = writes
        rows.reserveCapacity(Self.rowsPerStatement)
    }

    var isEmpty: Bool { rows.isEmpty }

    /// Queues a row; returns what was flushed when the batch filled up.
    func append(_ row: Row) throws -> Flushed? {
        rows.append(row)
        return rows.count >= Self.rowsPerStatement ? try flush() : nil
    }

    /// Writes the queued rows.
    func flush() throws -> Flushed {
        defer { rows.removeAll(keepingCapacity: true) }
        var flushed = Flushed()
        guard !rows.isEmpty else { return flushed }
        if rows.count == Self.rowsPerStatement {
            var statement = FastStatement(try bulkStatement())
            for row in rows { bind(row, to: &statement) }
            try statement.step(in: db)
            flushed.inserted = db.changesCount
            guard flushed.inserted < rows.count else { return flushed }
            // Some were there already: complete those stored as running, as one by one would.
            for row in rows {
                if try writes.completeResult(row) != nil { flushed.completed += 1 }
            }
            flushed.alreadyStored = rows.count - flushed.inserted - flushed.completed
            return flushed
        }
        for row in rows {
            let (start, end) = row.events
            if try writes.insertResult(run: row.run, testID: row.testID, start: start, end: end) != nil {
                flushed.inserted += 1
            } else {
                flushed.alreadyStored += 1
            }
        }
        return flushed
    }

    private func bulkStatement() throws -> Statement {
        if let bulkInsert { return bulkInsert }
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: Self.rowsPerStatement).joined(separator: ", ")
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome, message)
                VALUES \(values) ON CONFLICT (runId, testId, attempt) DO NOTHING
                """)
        bulkInsert = statement
        return statement
    }

    private func bind(_ row: Row, to statement: inout FastStatement) {
        statement.bind(row.run)
        statement.bind(row.testID)
        statement.bind(row.attempt)
        statement.bind(row.startedAt)
        statement.bind(row.duration)
        statement.bind(row.outcome)
        statement.bind(row.message)
    }
}
