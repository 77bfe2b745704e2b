/// Small text helpers the TAP reader shares.
enum TAPText {
    /// A space or a tab.
    static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        let start = text.drop(while: isBlank)
        var end = start.endIndex
        while end > start.startIndex, isBlank(start[start.index(before: end)]) {
            end = start.index(before: end)
        }
        return start[..<end]
    }

    /// The number of leading spaces of `line` (a tab counts as one).
    static func indentation(of line: Substring) -> Int {
        line.prefix(while: isBlank).count
    }

    /// TAP14 escapes resolved: `\#` is `#` and `\\` is `\`; any other backslash stays.
    static func unescape(_ text: Substring) -> String {
        guard text.contains("\\") else { return String(text) }
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                if character != "#" && character != "\\" { result.append("\\") }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }

    /// node-tap's `time=2.589ms` (also `s`, `us`, `ns`; no unit is milliseconds), in seconds;
    /// `nil` when `text` does not start with it.
    static func time(_ text: Substring) -> Double? {
        guard text.count > 5, text.prefix(5).lowercased() == "time=" else { return nil }
        let rest = text.dropFirst(5)
        let number = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        guard let value = Double(number), value.isFinite else { return nil }
        let unit = trimmed(rest[number.endIndex...]).lowercased()
        let scale: Double
        switch unit {
        case "", "ms": scale = 0.001
        case "s": scale = 1
        case "us", "µs": scale = 0.000_001
        case "ns": scale = 0.000_000_001
        default: return nil
        }
        return value * scale
    }
}
