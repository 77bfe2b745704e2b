import LedgerCore
import LedgerRecording

// The shapes of the tools' answers, as JSON.

/// A list cut to its first entries.
struct Bounded<Value: Encodable>: Encodable {
    var value: Value
    /// How many more entries there are than the answer lists.
    var more: Int
}

struct FlakyEntry: Encodable {
    var test: String
    var configuration: String
    var score: Double
    var failures: Int
    var runs: Int
    var strip: String
    var quarantined: String?
    var owners: [String]?
    var culprit: String?
    /// The followed fix's state and revision, when there is one: `fix-pending d842132c`.
    var fix: String?
}

struct FlakyAnswer: Encodable {
    var runs: Int
    var flaky: [FlakyEntry]
    var more: Int
    var broken: [String]
}

struct RunAnswer: Encodable {
    var headline: String
    var report: RunReport
    var moreFailures: Int
}

struct HistoryEntry: Encodable {
    var run: String
    var attempts: [String]
    /// `verification` for a verification's run; left out for a run of the suite.
    var kind: String?
    /// The test's verdict in a verification's run.
    var verdict: String?
}

struct DetailAnswer: Encodable {
    var detail: TestDetail
    var history: [HistoryEntry]
}
