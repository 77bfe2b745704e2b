/// A plan, `1..N` with an optional `# reason` (`1..0 # Skipped: no database`).
struct TAPPlan: Equatable {
    var count: Int
    var reason: String?
}

/// What one line of a TAP stream is, read without its indentation.
enum TAPLine: Equatable {
    /// `TAP version 13` (any case); the number when it is one.
    case version(Int?)
    case plan(TAPPlan)
    case testPoint(TAPTestPoint)
    /// `Bail out!` (any case) and its reason.
    case bailOut(reason: String?)
    /// `# Subtest: name`, or a bare `# Subtest`.
    case subtest(name: String?)
    /// Any other `#` line, the text after the `#`.
    case comment(Substring)
    /// `pragma +strict` and the like: read and ignored.
    case pragma
    /// The header `prove -v` prints before each file's TAP: `t/basic.t .. `.
    case proveHeader(file: String)
    case blank
    /// Anything else: ignored.
    case other

    /// Classifies `text`, a line without its indentation; `atTop` tells whether the line was
    /// not indented (only then can it be a `prove` header).
    init(_ text: Substring, atTop: Bool) {
        let text = TAPText.trimmed(text)
        if text.isEmpty {
            self = .blank
        } else if let point = TAPTestPoint(text) {
            self = .testPoint(point)
        } else if text.first == "#" {
            self = Self.hashLine(text)
        } else if let plan = Self.plan(text) {
            self = .plan(plan)
        } else if text.count >= 9, text.prefix(9).lowercased() == "bail out!" {
            let reason = TAPText.trimmed(text.dropFirst(9))
            self = .bailOut(reason: reason.isEmpty ? nil : String(reason))
        } else if text.count > 12, text.prefix(12).lowercased() == "tap version " {
            self = .version(Int(TAPText.trimmed(text.dropFirst(12))))
        } else if text.hasPrefix("pragma "), let sign = text.dropFirst(7).first, sign == "+" || sign == "-" {
            self = .pragma
        } else if atTop, let file = Self.proveHeader(text) {
            self = .proveHeader(file: file)
        } else {
            self = .other
        }
    }

    /// `# Subtest: name`, `# Subtest`, or any other comment.
    private static func hashLine(_ text: Substring) -> TAPLine {
        let body = text.dropFirst()
        let afterHash = body.drop(while: TAPText.isBlank)
        guard afterHash.hasPrefix("Subtest") else { return .comment(body) }
        let rest = afterHash.dropFirst(7)
        if rest.isEmpty { return .subtest(name: nil) }
        guard rest.first == ":" else { return .comment(body) }
        let name = TAPText.trimmed(rest.dropFirst())
        return .subtest(name: name.isEmpty ? nil : TAPText.unescape(name))
    }

    /// `1..N` or `1..N # reason`; `nil` for anything else.
    private static func plan(_ text: Substring) -> TAPPlan? {
        guard text.hasPrefix("1..") else { return nil }
        let rest = text.dropFirst(3)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let count = Int(digits) else { return nil }
        let after = TAPText.trimmed(rest[digits.endIndex...])
        if after.isEmpty { return TAPPlan(count: count) }
        guard after.first == "#" else { return nil }
        let reason = TAPText.trimmed(after.dropFirst())
        return TAPPlan(count: count, reason: reason.isEmpty ? nil : TAPText.unescape(reason))
    }

    /// `t/basic.t .. ` or `t/basic.t ... ` (dots padded to align): the file's name.
    private static func proveHeader(_ text: Substring) -> String? {
        guard text.hasSuffix(".."), let space = text.lastIndex(of: " ") else { return nil }
        let dots = text[text.index(after: space)...]
        let file = text[..<space]
        guard dots.allSatisfy({ $0 == "." }), !file.isEmpty, !file.contains(where: TAPText.isBlank) else {
            return nil
        }
        return String(file)
    }
}
