import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// Removes runs that started before `cutoff`, in bounded batches (each its own transaction),
    /// except the results of tests in quarantine: their history is what releasing them is judged
    /// on, so a run holding some keeps them, and its summary is rebuilt from what is left.
    ///
    /// - Parameters:
    ///   - cutoff: seconds since 1970; runs that started earlier go.
    ///   - project: only this project's runs; every project's when `nil`.
    ///   - batch: at most this many results are deleted in one transaction.
    ///   - progress: told after each run, with the runs done and the runs to do.
    /// - Returns: the runs and results removed, and the old runs kept for quarantined tests.
    /// - Throws: any SQLite error; what earlier batches removed stays removed.
    public func prune(
        before cutoff: Double, project: String?, batch: Int = 5_000, progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> PruneSummary {
        let runs = try writer.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM run WHERE startedAt < ? AND (? IS NULL OR project = ?) ORDER BY startedAt, id",
                arguments: [cutoff, project, project])
        }
        var summary = PruneSummary(runs: 0, results: 0, keptRuns: 0)
        for (index, run) in runs.enumerated() {
            // Results of tests quarantined in the run's project (any configuration) stay.
            let kept = """
                SELECT t.id FROM test t JOIN run ON run.id = ?1 JOIN quarantine q
                    ON q.project = run.project AND q.test = t.key AND t.project = run.project
                """
            while true {
                let removed = try StoreError.naming(writer.path) {
                    try writer.write { db -> Int in
                        try db.execute(
                            sql: """
                                DELETE FROM result WHERE id IN (
                                    SELECT id FROM result WHERE runId = ?1 AND testId NOT IN (\(kept)) LIMIT ?2)
                                """, arguments: [run, batch])
                        return db.changesCount
                    }
                }
                summary.results += removed
                if removed < batch { break }
            }
            try StoreError.naming(writer.path) {
                try writer.write { db in
                    if try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM result WHERE runId = ?)", arguments: [run])
                        == true
                    {
                        try RunSummary.refresh(run: run, in: db)
                        summary.keptRuns += 1
                    } else {
                        try db.execute(sql: "DELETE FROM run WHERE id = ?", arguments: [run])
                        summary.runs += 1
                    }
                }
            }
            progress(index + 1, runs.count)
        }
        return summary
    }
}
