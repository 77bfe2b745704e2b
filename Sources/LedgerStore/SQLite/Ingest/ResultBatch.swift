import GRDB
import LedgerCore

/// Finished attempts with nothing inside them (no issue, activity, capture or predicate) — the
/// bulk of any run — inserted many rows per statement: one statement per row would spend more
/// in SQLite's per-statement work than in the inserts themselves.
final class ResultBatch {
    static let rowsPerStatement = 64
    private let db: Database
    private unowned let writes: StoreWrites
    private var rows: [StoredRows.Result] = []

    init(db: Database, writes: StoreWrites) {
        self.db = db
        self.writes = writes
        rows.reserveCapacity(Self.rowsPerStatement)
    }

    var isEmpty: Bool { rows.isEmpty }

    /// Queues a row; returns what was flushed when the batch filled up.
    func append(_ row: consuming StoredRows.Result) throws -> FlushedResults? {
        rows.append(consume row)
        return rows.count >= Self.rowsPerStatement ? try flush() : nil
    }

    /// Writes the queued rows.
    func flush() throws -> FlushedResults {
        defer { rows.removeAll(keepingCapacity: true) }
        var flushed = FlushedResults()
        guard !rows.isEmpty else { return flushed }
        if rows.count == Self.rowsPerStatement {
            var statement = FastStatement(try writes.statement(.insertResults))
            let columns = StoredRows.Result.columns
            rows.withUnsafeBufferPointer { rows in
                for index in rows.indices { statement.bind(rows[index], columns) }
            }
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
            if try writes.insertResult(row) != nil {
                flushed.inserted += 1
            } else {
                flushed.alreadyStored += 1
            }
        }
        return flushed
    }
}
