import LedgerCore

/// A test function that has started and not yet ended: all the importer holds per running test.
struct SwiftTestingInFlightTest {
    var attempt: Int
    var start: SwiftTestingRecord.Instant
    /// Whether an issue that fails the test was recorded.
    var failed = false
    /// Whether the test was cancelled (`testCancelled`, Swift 6.3 and later).
    var cancelled = false
    /// The text of the first known issue (`withKnownIssue`), which does not fail the test.
    var knownIssue: String?

    /// The outcome and message of the test when it ends normally.
    var ending: (outcome: Outcome, message: String?) {
        if failed { return (.failed, nil) }
        if cancelled { return (.skipped, "cancelled") }
        if let knownIssue {
            let detail = knownIssue.isEmpty ? "" : ": \(knownIssue)"
            return (.passed, "passed with known issue" + detail)
        }
        return (.passed, nil)
    }

    /// The `test.end` of this attempt, at `end`.
    func end(
        of test: String, at end: SwiftTestingRecord.Instant, outcome: Outcome, message: String?
    ) -> LedgerEvent.TestEnd {
        LedgerEvent.TestEnd(
            at: end.since1970, test: test, attempt: attempt, outcome: outcome,
            duration: max(0, end.absolute - start.absolute), message: message)
    }
}
