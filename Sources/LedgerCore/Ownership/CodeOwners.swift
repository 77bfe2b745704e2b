/// A `CODEOWNERS` file, read as GitHub reads it.
///
/// Each line is a pattern and the owners of the files it matches; the last matching line wins,
/// and a pattern with no owners leaves its files unowned. Patterns follow `.gitignore`'s rules
/// with GitHub's exceptions: a pattern without a slash (but a trailing one) matches at any depth,
/// one with a leading or inner slash is anchored at the repository's root, a trailing slash
/// matches a directory and everything in it, `*` and `?` stay inside one path segment, `**`
/// spans any number of segments, and `dir/*` matches only the files directly in `dir`. `!`
/// negation is not supported, so such lines are left out, as GitHub does.
public struct CodeOwners: Hashable, Sendable {
    /// One line of the file.
    public struct Rule: Hashable, Sendable {
        /// The pattern as written.
        public var pattern: String
        /// The owners: `@user`, `@org/team` or an email address; empty leaves the files unowned.
        public var owners: [String]
        /// The line's number in the file, from 1.
        public var line: Int

        fileprivate var segments: [String]
        fileprivate var directoryOnly: Bool

        /// Whether the rule matches a file, given by its path from the repository's root.
        public func matches(_ path: String) -> Bool {
            let components = path.split(separator: "/").map(String.init)
            // `dir/*` is GitHub's way to say "only the files directly in dir".
            let coversDirectories = segments.last != "*"
            func match(_ p: Int, _ s: Int) -> Bool {
                if p == segments.count {
                    return s == components.count ? !directoryOnly : coversDirectories
                }
                if segments[p] == "**" {
                    return (s...components.count).contains { match(p + 1, $0) }
                }
                guard s < components.count, Glob.matches(segments[p], components[s]) else { return false }
                return match(p + 1, s + 1)
            }
            return match(0, 0)
        }
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
            var body = Substring(pattern)
            let directoryOnly = body.hasSuffix("/")
            while body.hasSuffix("/") { body = body.dropLast() }
            let anchored = body.hasPrefix("/") || body.contains("/")
            var segments = body.split(separator: "/").map(String.init)
            if !anchored { segments.insert("**", at: 0) }
            guard !segments.isEmpty else { continue }
            rules.append(
                Rule(
                    pattern: pattern, owners: Array(owners), line: index + 1, segments: segments,
                    directoryOnly: directoryOnly))
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
