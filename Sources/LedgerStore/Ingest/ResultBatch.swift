import GRDB
import LedgerCore

/// Finished attempts with nothing inside them (no issue, activity, capture or predicate) — the
/// bulk of any run — inserted many rows per statement: one statement per row would spend more
/// in SQLite's per-statement work than in the inserts themselves.
final class ResultBatch {
    struct Row {
        var run: Int64
        var testID: Int64
        var attempt: Int
        var startedAt: Double
        var duration: Double
        var outcome: String
        var message: String?
    }

    /// What a flush did: rows inserted, running rows completed, rows already stored.
    struct Flushed {
        var inserted = 0
        var completed = 0
        var alreadyStored = 0
    }

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
            let start = LedgerEvent.TestStart(at: row.startedAt, test: "", attempt: row.attempt)
            let end = LedgerEvent.TestEnd(
                at: row.startedAt + row.duration, test: "", attempt: row.attempt,
                outcome: Outcome(rawValue: row.outcome) ?? .crashed, duration: row.duration, message: row.message)
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
