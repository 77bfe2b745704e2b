/// A `CODEOWNERS` file, read as GitHub reads it.
///
/// Each line is a ``PathPattern`` and the owners of the files it matches; the last matching line
/// wins, and a pattern with no owners leaves its files unowned. `!` negation is not supported, so
/// such lines are left out, as GitHub does.
public struct CodeOwners: Hashable, Sendable {
    /// One line of the file.
    public struct Rule: Hashable, Sendable {
        /// The pattern as written.
        public var pattern: String
        /// The owners: `@user`, `@org/team` or an email address; empty leaves the files unowned.
        public var owners: [String]
        /// The line's number in the file, from 1.
        public var line: Int

        fileprivate var path: PathPattern

        /// Whether the rule matches a file, given by its path from the repository's root.
        public func matches(_ path: String) -> Bool { self.path.matches(path) }
    }

    /// The rules in the file's order.
    public let rules: [Rule]

    /// Reads the text of a `CODEOWNERS` file; lines it cannot use are left out.
    public init(parsing text: String) {
        var rules: [Rule] = []
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let words = Self.words(line)
            guard let pattern = words.first, !pattern.hasPrefix("#"), !pattern.hasPrefix("!") else { continue }
            let owners = words.dropFirst().prefix { !$0.hasPrefix("#") }
            guard let path = PathPattern(pattern) else { continue }
            rules.append(Rule(pattern: pattern, owners: Array(owners), line: index + 1, path: path))
        }
        self.rules = rules
    }

    /// The last rule that matches a file, given by its path from the repository's root.
    public func rule(for path: String) -> Rule? {
        rules.last { $0.matches(path) }
    }

    /// A line's words, split at whitespace that no backslash escapes.
    private static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var word = ""
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character.isWhitespace {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
