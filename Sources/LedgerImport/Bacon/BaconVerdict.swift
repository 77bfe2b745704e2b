import LedgerCore

/// What Bacon said of a spec that did not pass: the `[FAILED]` of SpecDox, the `: ERROR: X` of
/// Knock, and RubyMotion's longer `FAILED - <message>`.
///
/// | tag | outcome | issue kind |
/// | --- | --- | --- |
/// | `FAILED`, `FAILED - message` | `failed` | `assertion` |
/// | `ERROR: Class`, `ERROR: Class - message`, `ERROR - message` | `error` | `error` |
/// | `MISSING`, `MISSING - message` | `skipped` | `missing` |
///
/// An empty spec (`MISSING`: an `it` that checked nothing) proves nothing, so it is not a pass;
/// Bacon counts it neither as a failure nor as an error and it leaves the exit status alone, so
/// it is not a failure either: it is recorded as skipped, with an issue of kind `missing` that
/// says why. The Ruby output module records it the same way.
struct BaconVerdict: Hashable, Sendable {
    enum Kind: String, Sendable {
        case failed = "FAILED"
        case missing = "MISSING"
        case error = "ERROR"
    }

    var kind: Kind
    /// What the tag says: RubyMotion's message (`2.==(3) failed`, `ArgumentError: boom`), else
    /// the tag itself (`FAILED`, `ERROR: ArgumentError`).
    var message: String

    init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// Reads a tag, e.g. `FAILED`, `ERROR: NameError` or `FAILED - 2.==(3) failed`; `nil` when
    /// the text is not one.
    init?(_ tag: Substring) {
        guard let kind = [Kind.failed, .missing, .error].first(where: { tag.hasPrefix($0.rawValue) }) else {
            return nil
        }
        let rest = tag.dropFirst(kind.rawValue.count)
        self.kind = kind
        if rest.isEmpty {
            message = String(tag)
        } else if rest.hasPrefix(" - ") {
            message = String(rest.dropFirst(3))
        } else if kind == .error, rest.hasPrefix(": "), !rest.dropFirst(2).isEmpty {
            let named = rest.dropFirst(2)
            if let dash = BaconText.firstRange(of: " - ", in: named) {
                message = String(named[..<dash.lowerBound]) + ": " + named[dash.upperBound...]
            } else {
                message = String(tag)
            }
        } else {
            return nil
        }
    }

    /// Whether Bacon counts it against the run (its exit status): failures and errors.
    var countsAgainstRun: Bool { kind != .missing }

    var outcome: Outcome {
        switch kind {
        case .failed: .failed
        case .error: .error
        case .missing: .skipped
        }
    }

    var issueKind: LedgerEvent.IssueKind {
        switch kind {
        case .failed: .assertion
        case .error: .error
        case .missing: .missing
        }
    }

    /// Splits `text` where a tag begins after `opener` (` [` in SpecDox, `: ` in Knock), the
    /// last such place whose rest reads as a tag (a message may hold brackets or colons).
    /// - Returns: the text before the tag, and the tag; `nil` when there is none.
    static func split(_ text: Substring, opener: String, closer: String = "") -> (Substring, BaconVerdict)? {
        guard text.hasSuffix(closer) else { return nil }
        let body = text.dropLast(closer.count)
        for found in BaconText.rangesFromEnd(of: opener, in: body) {
            if let verdict = BaconVerdict(body[found.upperBound...]) {
                return (body[..<found.lowerBound], verdict)
            }
        }
        return nil
    }
}
