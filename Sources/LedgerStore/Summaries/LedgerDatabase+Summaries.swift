import GRDB
import LedgerCore

/// One run's summary as read from the store, its blobs valid only inside the call that hands it out.
struct SummaryView {
    /// Tests with results in the run.
    var tests: Int
    /// Tests whose final attempt failed.
    var failed: Int
    /// Per test, by test row: its row and ``RunSummary/Code``.
    var entries: SummaryEntries
    /// Per entry, the seconds of all attempts; empty unless asked for.
    var seconds: UnsafeRawBufferPointer

    func seconds(_ index: Int) -> Double { SummaryEntries.seconds(index, in: seconds) }
}

extension LedgerDatabase {
    /// Hands the summary of each run to `body`, in the order given, until `body` returns `false`.
    ///
    /// A run stored without a summary (which ingest never leaves) is summarised from its results.
    /// - Parameters:
    ///   - runs: the runs whose summaries to read.
    ///   - seconds: whether `body` needs the seconds of each entry.
    ///   - db: the connection of a read transaction.
    ///   - body: takes a run and its summary; returns whether to go on.
    func forEachSummary(
        of runs: [WindowRun], seconds: Bool, in db: Database, _ body: (WindowRun, SummaryView) throws -> Bool
    ) throws {
        let statement = try db.cachedStatement(
            sql: seconds
                ? "SELECT tests, failed, outcomes, seconds FROM run_summary WHERE runId = ?"
                : "SELECT tests, failed, outcomes, x'' FROM run_summary WHERE runId = ?")
        for run in runs {
            var fast = FastStatement(statement)
            fast.bind(run.row)
            let stored = try fast.row(in: db) { row in
                try row.withBlob(2) { outcomes in
                    try row.withBlob(3) { seconds in
                        try body(
                            run,
                            SummaryView(
                                tests: Int(row.int64(0)), failed: Int(row.int64(1)),
                                entries: SummaryEntries(bytes: outcomes), seconds: seconds))
                    }
                }
            }
            let goOn: Bool
            if let stored {
                goOn = stored
            } else {
                let summary = try RunSummary.read(run: run.row, in: db)
                goOn = try summary.outcomes.withUnsafeBytes { outcomes in
                    try summary.seconds.withUnsafeBytes { seconds in
                        try body(
                            run,
                            SummaryView(
                                tests: summary.tests, failed: summary.failed, entries: SummaryEntries(bytes: outcomes),
                                seconds: seconds))
                    }
                }
            }
            if !goOn { return }
        }
    }
}
