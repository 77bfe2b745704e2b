/// A pattern of paths from the repository's root, as `.gitignore` and `CODEOWNERS` write them.
///
/// A pattern without a slash (but a trailing one) matches at any depth, one with a leading or
/// inner slash is anchored at the repository's root, a trailing slash matches a directory and
/// everything in it, `*` and `?` stay inside one path segment, `**` spans any number of segments,
/// and `dir/*` matches only the files directly in `dir` (GitHub's reading).
public struct PathPattern: Hashable, Sendable {
    private var segments: [String]
    private var directoryOnly: Bool

    /// The pattern `text`; `nil` when it has no segment.
    public init?(_ text: String) {
        var body = Substring(text)
        directoryOnly = body.hasSuffix("/")
        while body.hasSuffix("/") { body = body.dropLast() }
        let anchored = body.hasPrefix("/") || body.contains("/")
        segments = body.split(separator: "/").map(String.init)
        if !anchored { segments.insert("**", at: 0) }
        guard !segments.isEmpty else { return nil }
    }

    /// Whether the pattern matches a file, given by its path from the repository's root.
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
