/// One TAP test point, `ok 1 - description # SKIP reason`, split into its parts.
///
/// The number is optional, a ` - ` before the description is not part of it, and the first
/// unescaped `#` that follows whitespace and opens a `SKIP`/`TODO` directive (any case, any
/// suffix: `# Skipped: reason`) or node-tap's `# time=2.5ms` ends the description. Any other
/// `#` stays in the description. `\#` and `\\` stand for `#` and `\`.
struct TAPTestPoint: Equatable {
    /// A directive: the test was not run, or is expected to fail.
    enum Directive: Equatable {
        case skip
        case todo
    }

    var ok: Bool
    var number: Int?
    /// The description, unescaped; empty when the line has none.
    var description: String
    var directive: Directive?
    /// The directive's reason, unescaped; `nil` when empty.
    var reason: String?
    /// node-tap's `# time=…` metadata, in seconds.
    var time: Double?

    /// Reads `text`, a line without its indentation; `nil` when it is not a test point.
    init?(_ text: Substring) {
        var rest: Substring
        if text.hasPrefix("ok") {
            ok = true
            rest = text.dropFirst(2)
        } else if text.hasPrefix("not ok") {
            ok = false
            rest = text.dropFirst(6)
        } else {
            return nil
        }
        guard rest.first.map(TAPText.isBlank) ?? true else { return nil }
        rest = rest.drop(while: TAPText.isBlank)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, rest[digits.endIndex...].first.map(TAPText.isBlank) ?? true {
            number = Int(digits)
            rest = rest[digits.endIndex...].drop(while: TAPText.isBlank)
        }
        if rest.first == "-", rest.dropFirst().first.map(TAPText.isBlank) ?? true {
            rest = rest.dropFirst().drop(while: TAPText.isBlank)
        }
        let split = Self.splitDirective(rest)
        description = TAPText.unescape(TAPText.trimmed(split.description))
        directive = split.directive
        reason = split.reason.map(TAPText.unescape).flatMap { $0.isEmpty ? nil : $0 }
        time = split.time
    }

    /// Whether the point counts against the run: `not ok` without a `SKIP` or `TODO`.
    var isFailure: Bool { !ok && directive == nil }

    /// `rest` split at its first directive or time: what comes before, and what it says.
    private static func splitDirective(_ rest: Substring)
        -> (description: Substring, directive: Directive?, reason: Substring?, time: Double?)
    {
        var escaped = false
        var afterBlank = true
        for index in rest.indices {
            let character = rest[index]
            if escaped {
                escaped = false
                afterBlank = false
                continue
            }
            if character == "\\" {
                escaped = true
                afterBlank = false
                continue
            }
            if character == "#", afterBlank {
                let after = rest[rest.index(after: index)...].drop(while: TAPText.isBlank)
                if let time = TAPText.time(after) {
                    return (rest[..<index], nil, nil, time)
                }
                let word = after.prefix { !TAPText.isBlank($0) }.uppercased()
                let reason = after.drop { !TAPText.isBlank($0) }.drop(while: TAPText.isBlank)
                if word.hasPrefix("SKIP") { return (rest[..<index], .skip, TAPText.trimmed(reason), nil) }
                if word.hasPrefix("TODO") { return (rest[..<index], .todo, TAPText.trimmed(reason), nil) }
            }
            afterBlank = TAPText.isBlank(character)
        }
        return (rest, nil, nil, nil)
    }
}
