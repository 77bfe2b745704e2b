import LedgerCore

/// A spec that did not pass, waiting for its ErrorLog entry (the message and where it
/// happened) before its `issue` and `test.end` go out: SpecDox prints the entries after the
/// last spec, Knock right after the spec.
struct BaconHeldSpec: Sendable {
    var test: String
    /// Which attempt of the test it is, from 1: the output module runs a failing spec again.
    var attempt = 1
    /// What ends its entry's first backtrace line: `: <innermost context> - <description>`.
    var frameSuffix: String
    var verdict: BaconVerdict
    /// When it ended and how long it took.
    var endedAt: Double
    var duration: Double
    /// From its ErrorLog entry, once read.
    var message: String?
    var location: (file: String, line: Int)?

    /// Takes what an ErrorLog entry says: its message lines (`Class: message`) and first frame.
    mutating func attach(message lines: [String], frame: Substring?) {
        let text = lines.joined(separator: "\n")
        if !text.isEmpty {
            message = text.hasPrefix("Bacon::Error: ") ? String(text.dropFirst("Bacon::Error: ".count)) : text
        }
        if let frame, let location = BaconText.location(inFrame: frame) {
            self.location = location
        }
    }

    /// Its `issue` and `test.end`.
    var events: [LedgerEvent] {
        let text = message ?? verdict.message
        return [
            .issue(
                LedgerEvent.Issue(
                    at: endedAt, test: test, attempt: attempt, message: text, file: location?.file,
                    line: location?.line, kind: verdict.issueKind)),
            .testEnd(
                LedgerEvent.TestEnd(
                    at: endedAt, test: test, attempt: attempt, outcome: verdict.outcome, duration: duration,
                    message: text)),
        ]
    }
}
