import LedgerCore

/// The attempts an ingest wrote into a run that had no results before it: enough to summarise the
/// run without reading its results back, which would cost a table lookup per result.
struct WrittenAttempts {
    private struct Entry {
        var testID: Int64
        var attempt: Int32
        var outcome: Outcome
        var seconds: Double
    }

    private var entries: [Entry] = []
    private var spans = ConcurrentSpans()
    private var load: Double?

    /// Takes an attempt that ended: `seconds` is its stored duration, `load` its stored load.
    mutating func append(
        testID: Int64, attempt: Int, outcome: Outcome, startedAt: Double, seconds: Double, load: Double?
    ) {
        entries.append(Entry(testID: testID, attempt: Int32(clamping: attempt), outcome: outcome, seconds: seconds))
        spans.add(startedAt: startedAt, duration: seconds)
        if let load { self.load = max(self.load ?? load, load) }
    }

    /// The run's summary, as ``RunSummary/read(run:in:)`` would give it; `nil` when an attempt was
    /// written twice, where only the store knows which one was kept.
    func summary() -> RunSummary? {
        let sorted = entries.sorted { ($0.testID, $0.attempt) < ($1.testID, $1.attempt) }
        var summary = RunSummary(concurrent: spans.anyOverlap, load: load)
        var index = sorted.startIndex
        while index < sorted.endIndex {
            let testID = sorted[index].testID
            var anyPassed = false
            var anyFailed = false
            var seconds = 0.0
            var last = index
            while index < sorted.endIndex, sorted[index].testID == testID {
                if index > last, sorted[index].attempt == sorted[last].attempt { return nil }
                last = index
                anyPassed = anyPassed || sorted[index].outcome.isPass
                anyFailed = anyFailed || sorted[index].outcome.isFailure
                seconds += sorted[index].seconds
                index += 1
            }
            summary.append(
                testID: testID,
                code: RunSummary.Code(final: sorted[last].outcome, anyPassed: anyPassed, anyFailed: anyFailed),
                seconds: seconds)
        }
        return summary
    }
}
