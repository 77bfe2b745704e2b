/// A file and line named by a TAP producer: in YAML `at`/`location`, a stack frame or a comment.
struct TAPLocation: Equatable {
    var file: String
    var line: Int

    /// `path:line` or `path:line:column`, with an optional `file://` scheme
    /// (`file:///app/test/a.test.js:35:1`); `nil` when `text` is not one.
    init?(_ text: Substring) {
        var text = TAPText.trimmed(text)
        if text.hasPrefix("file://") { text = text.dropFirst(7) }
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        let numeric = { (field: Substring) in !field.isEmpty && field.allSatisfy { $0.isASCII && $0.isNumber } }
        var keep = fields.count
        if keep >= 3, numeric(fields[keep - 1]), numeric(fields[keep - 2]) {
            keep -= 2
        } else if keep >= 2, numeric(fields[keep - 1]) {
            keep -= 1
        } else {
            return nil
        }
        let file = fields[..<keep].joined(separator: ":")
        guard !file.isEmpty, let line = Int(fields[keep]) else { return nil }
        self.file = file
        self.line = line
    }

    init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The frames of a stack trace that name a file and line, innermost first, without the
    /// runtime's own (`node:internal/…`) and anonymous ones: `fn (file:3:4)`, `at file:3:4`.
    static func frames(in stack: String) -> [TAPLocation] {
        stack.split(whereSeparator: \.isNewline).compactMap { find(in: $0) }
    }

    /// The first place named in free text: Perl's `at t/basic.t line 12.`, else the first word
    /// that reads `path:line` (`./spec/a_spec.rb:12:in 'block'`, `(lib/a.js:3:4)`), where the
    /// path has a `.` or `/` and is not one of node's own modules.
    static func find(in text: Substring) -> TAPLocation? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        for (index, word) in words.enumerated() where word == "at" && index + 3 < words.count {
            let number = words[index + 3].prefix { $0.isASCII && $0.isNumber }
            if words[index + 2] == "line", let line = Int(number) {
                return TAPLocation(file: String(words[index + 1]), line: line)
            }
        }
        for word in words {
            let stripped = word.strippingEnds(of: "()[]'\"`,;")
            if let location = fileAndLine(in: stripped) { return location }
        }
        return nil
    }

    /// `path:line`, possibly followed by more (`:column`, `:in …`), at the start of `word`.
    private static func fileAndLine(in word: Substring) -> TAPLocation? {
        var word = word
        if word.hasPrefix("file://") { word = word.dropFirst(7) }
        guard !word.hasPrefix("node:") else { return nil }
        var search = word.startIndex
        while let colon = word[search...].firstIndex(of: ":") {
            let after = word[word.index(after: colon)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            let file = word[..<colon]
            if let line = Int(digits), after[digits.endIndex...].first.map({ $0 == ":" }) ?? true,
                file.contains(where: { $0 == "." || $0 == "/" })
            {
                return TAPLocation(file: String(file), line: line)
            }
            search = word.index(after: colon)
        }
        return nil
    }
}

extension Substring {
    /// The text without the given characters at either end.
    fileprivate func strippingEnds(of set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
