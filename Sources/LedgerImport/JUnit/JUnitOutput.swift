/// What a test printed, from `<system-out>` and `<system-err>`, each already cut to its tail.
struct JUnitOutput: Equatable {
    /// How much of each stream is kept: the last 4 KB, the part nearest the failure.
    static let limit = 4 * 1024

    var out = ""
    var err = ""

    /// Both streams, standard output first, cut to ``limit``; `nil` when the test printed nothing.
    var combined: String? {
        let parts = [out, err].filter { !$0.allSatisfy(\.isWhitespace) }.map { part in
            String(part.reversed().drop(while: \.isNewline).reversed())
        }
        guard !parts.isEmpty else { return nil }
        var buffer = JUnitTextBuffer(keep: .tail(Self.limit))
        buffer.append(parts.joined(separator: "\n"))
        return buffer.result
    }

    /// Keeps `text` as the stream `element` (`system-out` or `system-err`).
    mutating func set(_ element: JUnitElement, _ text: String) {
        if element == .systemErr { err = text } else { out = text }
    }
}
