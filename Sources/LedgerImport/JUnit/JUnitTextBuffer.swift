/// Collects an element's text up to a limit, so a huge stack trace or log cannot exhaust memory.
struct JUnitTextBuffer {
    /// Which part of a long text to keep.
    enum Keep: Equatable {
        /// The first `limit` UTF-8 bytes: where messages and `file:line` references are.
        case head(Int)
        /// The last `limit` UTF-8 bytes: the output just before a test failed.
        case tail(Int)
    }

    /// How much of a failure's message or text is kept: plenty for the message and the
    /// `file:line` references, bounded whatever the report holds.
    static let failureTextLimit = 64 * 1024

    let keep: Keep
    private(set) var text = ""
    /// Whether some of the text was dropped.
    private(set) var truncated = false
    private var bytes = 0

    init(keep: Keep) {
        self.keep = keep
    }

    mutating func append(_ piece: String) {
        switch keep {
        case .head(let limit):
            guard bytes < limit else {
                truncated = true
                return
            }
            let room = limit - bytes
            let kept = piece.utf8.count <= room ? piece : Self.prefix(of: piece, bytes: room)
            truncated = truncated || kept.utf8.count < piece.utf8.count
            text += kept
            bytes += kept.utf8.count
        case .tail(let limit):
            text += piece
            bytes += piece.utf8.count
            // Trimming only once the text is twice the limit keeps appends amortised O(1).
            if bytes > 2 * limit { trim(to: limit) }
        }
    }

    /// The kept text; for ``Keep/tail(_:)`` a dropped beginning is marked with `…`.
    var result: String {
        guard case .tail(let limit) = keep, bytes > limit else { return text }
        var copy = self
        copy.trim(to: limit)
        return "…" + copy.text
    }

    private mutating func trim(to limit: Int) {
        let utf8 = text.utf8
        var start = utf8.index(utf8.endIndex, offsetBy: -limit)
        while start < utf8.endIndex, Self.isContinuation(utf8[start]) {
            start = utf8.index(after: start)
        }
        text = String(decoding: utf8[start...], as: UTF8.self)
        bytes = text.utf8.count
        truncated = true
    }

    private static func prefix(of piece: String, bytes limit: Int) -> String {
        let utf8 = piece.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, Self.isContinuation(utf8[end]) {
            end = utf8.index(before: end)
        }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    /// Whether `byte` continues a UTF-8 sequence rather than starting a character.
    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
