import Foundation
import GRDB
import LedgerCore

extension RunSummary {
    /// Summarises the run's stored results: an attempt with no outcome counts as crashed.
    static func read(run: Int64, in db: Database) throws -> RunSummary {
        let statement = try db.cachedStatement(
            sql: """
                SELECT testId, outcome, coalesce(duration, 0), startedAt, duration, load FROM result WHERE runId = ?
                ORDER BY testId, attempt
                """)
        var fast = FastStatement(statement)
        fast.bind(run)
        var builder = Builder()
        try fast.forEachRow(in: db) { row in
            builder.add(
                testID: row.int64(0), outcome: row.withText(1, Code.outcome(named:)), seconds: row.double(2),
                startedAt: row.double(3), duration: row.optionalDouble(4), load: row.optionalDouble(5))
        }
        return builder.finish()
    }

    /// Rewrites the stored summary of `run` from its results.
    static func refresh(run: Int64, in db: Database) throws {
        try read(run: run, in: db).store(run: run, in: db)
    }

    /// Writes this summary as the one of `run`.
    func store(run: Int64, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO run_summary (runId, tests, failed, outcomes, seconds, concurrent, load)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [run, tests, failed, Data(outcomes), Data(seconds), concurrent, load])
    }

    /// Summarises every stored run: what a ledger written before summaries needs once.
    static func refreshAll(in db: Database) throws {
        for run in try Int64.fetchAll(db, sql: "SELECT id FROM run") {
            try refresh(run: run, in: db)
        }
    }
}
