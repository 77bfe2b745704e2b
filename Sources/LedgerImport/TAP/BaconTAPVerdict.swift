import LedgerCore

/// What Bacon's TAP output (`bacon -p`, RubyMotion's `output=tap`) says of a spec that did not
/// pass: it appends the verdict to the description — `not ok 3 - is empty: FAILED`,
/// `: MISSING`, `: ERROR: NoMethodError`, and in RubyMotion `: FAILED - <message>`. Read as
/// plain TAP, every failure would be a test of its own; this keeps the spec's name.
struct BaconTAPVerdict: Equatable {
    var requirement: String
    var outcome: Outcome
    var message: String?

    init?(description: String) {
        for (marker, outcome) in [(": FAILED", Outcome.failed), (": MISSING", .skipped), (": ERROR", .error)] {
            guard let range = description.range(of: marker, options: .backwards) else { continue }
            let rest = description[range.upperBound...]
            guard rest.isEmpty || rest.hasPrefix(" - ") || (outcome == .error && rest.hasPrefix(":")) else { continue }
            requirement = String(description[..<range.lowerBound])
            self.outcome = outcome
            let detail = rest.drop { $0 == ":" || $0 == " " || $0 == "-" }
            message = detail.isEmpty ? nil : String(detail)
            return
        }
        return nil
    }
}
