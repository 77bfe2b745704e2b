/// A test point read but not yet complete: its YAML block and `#` comments may follow.
struct TAPPendingPoint {
    /// Whether the point is a test, or only a subtest's aggregate result.
    enum Role {
        case test
        case subtestResult
    }

    var point: TAPTestPoint
    /// The line's text without indentation, an issue's message when nothing better is said.
    var text: String
    var indentation: Int
    var line: Int
    var role: Role
    /// The ids of the subtests it is in, outermost first.
    var path: [Int]
    /// The `prove -v` file it is in.
    var document: String?
    /// Its place among the points of its level, for a test without description.
    var ordinal: Int
    /// When the line arrived; `nil` when reading a file.
    var arrivedAt: Double?
    /// When the test point before it arrived (or the run started): where it began.
    var previousAt: Double
    /// Said on the test's end: why a subtest's result is recorded as a test.
    var note: String?
    var yaml: [Substring] = []
    var comments: [String] = []
    var commentBytes = 0

    /// Keeps a `#` comment line when the point did not pass, within a bound.
    mutating func addComment(_ text: Substring) {
        guard !point.ok, commentBytes < TAPPendingPoint.commentLimit else { return }
        let line = String(TAPText.trimmed(text))
        commentBytes += line.utf8.count + 1
        comments.append(line)
    }

    /// The most comment text kept for one test point, in bytes.
    static let commentLimit = 8 << 10
}

/// A YAML block being read: `  ---` seen, `  ...` not yet.
struct TAPYAMLBlock {
    /// The indentation of its `---`.
    var indentation: Int
    /// The line of its `---`.
    var line: Int
    var lines: [Substring] = []
    var bytes = 0
    var truncated = false

    /// The most YAML kept for one test point, in bytes; the rest is read and dropped.
    static let limit = 64 << 10

    /// Keeps `line` (without the block's indentation) when within the bound.
    mutating func append(_ line: Substring) {
        guard bytes < Self.limit else {
            truncated = true
            return
        }
        bytes += line.utf8.count + 1
        lines.append(Substring(String(line)))
    }
}
