import LedgerCore

/// One attempt of a testcase, worked out from its elements, ready to become events.
struct JUnitAttempt: Equatable {
    /// An `issue` without its time, test and attempt, which the emitter adds.
    struct Issue: Equatable {
        var message: String
        var kind: LedgerEvent.IssueKind
        var file: String?
        var line: Int?
    }

    var outcome: Outcome
    var duration: Double
    var issues: [Issue] = []
    /// The `test.end` message: the skip reason, or what a failed attempt printed.
    var message: String?
}
