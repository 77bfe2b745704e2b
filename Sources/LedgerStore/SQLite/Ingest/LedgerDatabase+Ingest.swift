import GRDB
import LedgerCore

extension LedgerDatabase {
    /// Runs `produce` inside one write transaction, storing every event it emits.
    ///
    /// Nothing is stored unless `produce` returns: any error rolls the whole input back.
    /// - Parameters:
    ///   - keepRunning: store attempts that have not ended as running (a live recorder's
    ///     writes) instead of as crashed (an input that ended without them).
    ///   - produce: emits events into the sink it is given.
    /// - Returns: what was stored.
    /// - Throws: what `produce` throws; ``StoreSink/Problem`` for events out of order.
    @discardableResult
    public func ingest(keepRunning: Bool = false, _ produce: (inout StoreSink) throws -> Void) throws
        -> IngestSummary
    {
        let (summary, learned) = try StoreError.naming(writer.path) {
            try writer.write { db in
                var sink = StoreSink(writes: StoreWrites(db: db), knownTests: knownTests)
                try produce(&sink)
                try sink.finish(running: keepRunning)
                return (sink.summary, sink.learnedTests)
            }
        }
        knownTests.merge(learned)
        return summary
    }
}
