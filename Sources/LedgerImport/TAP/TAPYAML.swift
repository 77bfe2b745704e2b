import Foundation

/// A value of a TAP diagnostic block, read shallowly.
enum TAPYAMLValue: Equatable {
    case text(String)
    /// A nested map, one level deep: deeper values are kept as their text.
    case map([String: String])
    case list([String])

    /// The value as text: a list's items one per line; `nil` for a map.
    var text: String? {
        switch self {
        case .text(let text): text
        case .list(let items): items.joined(separator: "\n")
        case .map: nil
        }
    }
}

/// Reads the YAML of a TAP diagnostic block (`  ---` … `  ...`) by hand, shallowly: top-level
/// `key: value` lines with plain, quoted and block (`|`, `|-`, `>`) scalars, and one level of
/// nested maps (`at:` then `file: …`, `line: …`) or lists (`- item`), block or flow
/// (`{ file: a.js, line: 3 }`). Anything it does not understand is skipped: diagnostics are
/// free-form and never make an import fail.
enum TAPYAML {
    /// The top-level keys of `lines`, the block's lines without its own indentation.
    static func parse(_ lines: [Substring]) -> [String: TAPYAMLValue] {
        let base = lines.filter { !TAPText.trimmed($0).isEmpty }.map(TAPText.indentation).min() ?? 0
        var result: [String: TAPYAMLValue] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            let content = TAPText.trimmed(line)
            guard !content.isEmpty, content.first != "#", TAPText.indentation(of: line) == base,
                let (key, value) = keyValue(content)
            else { continue }
            var children: [Substring] = []
            while index < lines.count,
                TAPText.trimmed(lines[index]).isEmpty || TAPText.indentation(of: lines[index]) > base
            {
                children.append(lines[index])
                index += 1
            }
            result[key] = self.value(value, children: children)
        }
        return result
    }

    /// `key: value` → the key and the value's text; `nil` when `content` is not a key.
    static func keyValue(_ content: Substring) -> (String, Substring)? {
        var index = content.startIndex
        while let colon = content[index...].firstIndex(of: ":") {
            let after = content.index(after: colon)
            if after == content.endIndex || TAPText.isBlank(content[after]) {
                let key = unquote(TAPText.trimmed(content[..<colon]))
                guard !key.isEmpty else { return nil }
                return (key, TAPText.trimmed(content[after...]))
            }
            index = after
        }
        return nil
    }

    /// The value that starts with `value` on the key's line and continues on `children`.
    private static func value(_ value: Substring, children: [Substring]) -> TAPYAMLValue {
        if value.isEmpty {
            let nonBlank = children.map(TAPText.trimmed).filter { !$0.isEmpty }
            guard let first = nonBlank.first else { return .text("") }
            if first == "-" || first.hasPrefix("- ") {
                return .list(nonBlank.filter { $0.first == "-" }.map { scalar(TAPText.trimmed($0.dropFirst())) })
            }
            return .map(map(children))
        }
        if value.first == "|" || value.first == ">" {
            return .text(blockScalar(children, folded: value.first == ">"))
        }
        if value.first == "{", value.last == "}" {
            var map: [String: String] = [:]
            for item in flowItems(value.dropFirst().dropLast()) {
                if let (key, item) = keyValue(item) { map[key] = scalar(item) }
            }
            return .map(map)
        }
        if value.first == "[", value.last == "]" {
            return .list(flowItems(value.dropFirst().dropLast()).map(scalar))
        }
        let continued = ([value] + children.map(TAPText.trimmed).filter { !$0.isEmpty }).joined(separator: " ")
        return .text(scalar(Substring(continued)))
    }

    /// A nested block map, one level: `key: value` lines at the children's own indentation.
    private static func map(_ lines: [Substring]) -> [String: String] {
        let nested = parse(lines)
        return nested.mapValues { value in
            switch value {
            case .text(let text): text
            case .list(let items): items.joined(separator: "\n")
            case .map(let map): map.keys.sorted().map { "\($0): \(map[$0] ?? "")" }.joined(separator: ", ")
            }
        }
    }

    /// A `|` or `>` block: the lines without their common indentation, trailing blank lines
    /// dropped; `>` folds lines into one, keeping blank lines as line breaks.
    private static func blockScalar(_ lines: [Substring], folded: Bool) -> String {
        let indent = lines.filter { !TAPText.trimmed($0).isEmpty }.map(TAPText.indentation).min() ?? 0
        var texts = lines.map { TAPText.trimmed($0).isEmpty ? "" : String($0.dropFirst(indent)) }
        while texts.last == "" { texts.removeLast() }
        guard folded else { return texts.joined(separator: "\n") }
        var result = ""
        for text in texts {
            if text.isEmpty {
                result += "\n"
            } else {
                if !result.isEmpty, result.last != "\n" { result += " " }
                result += text
            }
        }
        return result
    }

    /// The items of a flow collection's inside, split at top-level commas.
    private static func flowItems(_ inside: Substring) -> [Substring] {
        var items: [Substring] = []
        var start = inside.startIndex
        var quote: Character?
        var depth = 0
        for index in inside.indices {
            let character = inside[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
            } else if character == ",", depth == 0 {
                items.append(TAPText.trimmed(inside[start..<index]))
                start = inside.index(after: index)
            }
        }
        items.append(TAPText.trimmed(inside[start...]))
        return items.filter { !$0.isEmpty }
    }

    /// A scalar's text: quotes removed and escapes resolved, a plain scalar's ` # comment` cut.
    static func scalar(_ text: Substring) -> String {
        if text.first == "'" || text.first == "\"" { return unquote(text) }
        if let comment = text.range(of: " #") { return String(TAPText.trimmed(text[..<comment.lowerBound])) }
        return String(text)
    }

    /// `'it''s'` → `it's`; `"a\"b\n"` → `a"b` and a line break; other text as it is.
    private static func unquote(_ text: Substring) -> String {
        guard text.count >= 2, let first = text.first, first == text.last, first == "'" || first == "\"" else {
            return String(text)
        }
        let inside = text.dropFirst().dropLast()
        if first == "'" { return inside.replacingOccurrences(of: "''", with: "'") }
        var result = ""
        var escaped = false
        for character in inside {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "0": result.append("\0")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
