import Foundation
import LedgerStore
import PostgresNIO

extension PostgresLedger {
    /// Deletes runs that started before `cutoff` in transactions of at most `batch` results, so
    /// that writers wait on no long one; a quarantined test's results stay, and so does its run.
    public func prune(
        before cutoff: Double, project: String?, batch: Int = 5_000, progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> PruneSummary {
        let runs = try withConnection { session in
            try session.rows(
                """
                SELECT id FROM run WHERE startedAt < \(cutoff) AND (\(project)::text IS NULL OR project = \(project))
                ORDER BY startedAt, id
                """
            ).map { try $0.decode(Int64.self) }
        }
        var summary = PruneSummary()
        for (index, run) in runs.enumerated() {
            while true {
                let removed = try withConnection { session in
                    try session.rows(
                        """
                        DELETE FROM result WHERE id IN (
                            SELECT r.id FROM result r JOIN run ON run.id = r.runId JOIN test t ON t.id = r.testId
                            WHERE r.runId = \(run) AND NOT EXISTS (
                                SELECT 1 FROM quarantine q WHERE q.project = run.project AND q.test = t.key)
                            LIMIT \(batch))
                        RETURNING 1
                        """
                    ).count
                }
                summary.results += removed
                if removed < batch { break }
            }
            try transaction { session in
                // The run's row first, as an ingest takes it: what an ingest under way stores is then
                // seen by the check below, in a statement of its own.
                try session.run("SELECT 1 FROM run WHERE id = \(run) FOR UPDATE")
                let kept = try session.value("SELECT EXISTS (SELECT 1 FROM result WHERE runId = \(run))") ?? false
                if kept {
                    try PostgresWrites(session: session, testsClient: testsClient).refreshSummary(run: run)
                    summary.keptRuns += 1
                } else {
                    try session.run("DELETE FROM run WHERE id = \(run)")
                    summary.runs += 1
                }
            }
            progress(index + 1, runs.count)
        }
        return summary
    }
}
