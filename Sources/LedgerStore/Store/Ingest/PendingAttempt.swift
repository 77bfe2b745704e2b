import LedgerCore

/// One test attempt being read: held until its `test.end` so that everything about it is
/// written together, once.
package struct PendingAttempt {
    struct Key: Hashable {
        var run: String
        var test: String
        var attempt: Int
    }

    package var start: LedgerEvent.TestStart
    package var activities: [LedgerEvent.ActivityStart] = []
    package var activityEnds: [String: LedgerEvent.ActivityEnd] = [:]
    package var captures: [LedgerEvent.Capture] = []
    package var predicates: [LedgerEvent.Predicate] = []
    package var issues: [LedgerEvent.Issue] = []
    package var attachments: [LedgerEvent.Attachment] = []

    init(start: LedgerEvent.TestStart) {
        self.start = start
    }

    /// Takes a repeated start of this attempt: the earliest time stands, and what the first
    /// start left out is filled in; everything read so far is kept.
    mutating func `continue`(with repeated: LedgerEvent.TestStart) {
        var merged = start
        merged.at = min(start.at, repeated.at)
        merged.suite = start.suite ?? repeated.suite
        merged.name = start.name ?? repeated.name
        merged.file = start.file ?? repeated.file
        merged.line = start.line ?? repeated.line
        merged.layer = start.layer ?? repeated.layer
        merged.tags = start.tags ?? repeated.tags
        merged.process = start.process ?? repeated.process
        merged.load = start.load ?? repeated.load
        start = merged
    }

    /// Nothing happened inside it: it can be stored in bulk.
    var hasNoDetails: Bool {
        activities.isEmpty && captures.isEmpty && predicates.isEmpty && issues.isEmpty && attachments.isEmpty
    }

    /// The attempt as it stands when its run ends without a `test.end`: crashed.
    var crashedEnd: LedgerEvent.TestEnd {
        let lastSeen =
            (activities.map(\.at) + captures.map(\.at) + predicates.map(\.at) + issues.map(\.at)
            + attachments.map(\.at))
            .max() ?? start.at
        return LedgerEvent.TestEnd(
            at: lastSeen, test: start.test, attempt: start.attempt, outcome: .crashed,
            duration: lastSeen - start.at, message: "the run ended before this test finished")
    }
}
