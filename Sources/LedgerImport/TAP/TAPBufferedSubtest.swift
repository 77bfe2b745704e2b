/// A buffered subtest as node-tap and Perl's Test2 write it: the point that sums it up comes first,
/// ending in ` {`, its tests follow one level deeper, and a `}` at the point's indentation closes it.
struct TAPBufferedSubtest {
    /// The point's line as written, for a ` {` that turns out to open nothing.
    var line: String
    /// The point without its ` {`, read once the subtest closes.
    var point: String
    var indentation: Int

    /// The subtest `line` opens, or `nil` when it is not a test point ending in ` {`.
    init?(opening line: Substring, indentation: Int) {
        let content = TAPText.trimmed(line.dropFirst(indentation))
        guard content.hasSuffix(" {"), case .testPoint = TAPLine(content, atTop: indentation == 0) else { return nil }
        self.line = String(line)
        point = String(line[..<content.endIndex].dropLast(2))
        self.indentation = indentation
    }
}
