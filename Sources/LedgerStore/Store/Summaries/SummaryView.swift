import LedgerCore

/// One run's summary as read from the store, its blobs valid only inside the call that hands it out.
package struct SummaryView {
    /// Tests with results in the run.
    package var tests: Int
    /// Tests whose final attempt failed.
    package var failed: Int
    /// Per test, by test row: its row and ``RunSummary/Code``.
    package var entries: SummaryEntries
    /// Per entry, the seconds of all attempts; empty unless asked for.
    package var seconds: UnsafeRawBufferPointer
    /// Whether two of the run's attempts ran at once; `nil` when not known.
    package var concurrent: Bool?

    package func seconds(_ index: Int) -> Double { SummaryEntries.seconds(index, in: seconds) }
}

extension RunSummary {
    /// Hands this summary to `body` as a view.
    package func withView<Result>(_ body: (SummaryView) throws -> Result) rethrows -> Result {
        try outcomes.withUnsafeBytes { outcomes in
            try seconds.withUnsafeBytes { seconds in
                try body(
                    SummaryView(
                        tests: tests, failed: failed, entries: SummaryEntries(bytes: outcomes), seconds: seconds,
                        concurrent: concurrent))
            }
        }
    }
}
