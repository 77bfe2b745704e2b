import LedgerCore

/// A test read to its end, waiting only for the names of the subtests it is in.
struct TAPFinishedTest {
    /// The ids of the subtests it is in, outermost first.
    var path: [Int]
    /// The `prove -v` file it is in.
    var document: String?
    var name: String
    var outcome: Outcome
    var start: Double
    var duration: Double
    var location: TAPLocation?
    /// The failure, for a failed test.
    var issue: (message: String, location: TAPLocation?)?
    var issueKind: LedgerEvent.IssueKind = .assertion
    /// `test.end`'s message: the skip or TODO reason, or a failure's stack.
    var message: String?

    /// The suite of a test in the subtests `names` of the `prove -v` file `document`: their
    /// names joined by ` / `, or `tap` at the top level of a stream (whose tests' ids are then
    /// their names alone, as other producers of the same tests name them).
    static func suite(document: String?, names: [String]) -> String {
        let parts = (document.map { [$0] } ?? []) + names
        return parts.isEmpty ? "tap" : parts.joined(separator: " / ")
    }

    /// `test.start`, the issue if it failed, and `test.end`, for the test id `id` in `suite`.
    func events(id: String, suite: String) -> [LedgerEvent] {
        var events: [LedgerEvent] = [
            .testStart(
                LedgerEvent.TestStart(
                    at: start, test: id, attempt: 1, suite: suite, name: name, file: location?.file,
                    line: location?.line))
        ]
        if let issue {
            events.append(
                .issue(
                    LedgerEvent.Issue(
                        at: start, test: id, attempt: 1, message: issue.message, file: issue.location?.file,
                        line: issue.location?.line, kind: issueKind)))
        }
        events.append(
            .testEnd(
                LedgerEvent.TestEnd(
                    at: start + duration, test: id, attempt: 1, outcome: outcome, duration: duration,
                    message: message)))
        return events
    }
}
