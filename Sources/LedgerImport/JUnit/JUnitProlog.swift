import Foundation

/// What comes before the root element of an XML document, read from the document's first bytes:
/// enough to tell JUnit XML from other input and to refuse dangerous document type declarations.
struct JUnitProlog: Equatable {
    /// The root element's name, or `nil` when the bytes end before it or are not XML.
    var rootElement: String?
    /// The 1-based line the root element starts on.
    var rootLine: Int?
    /// The 1-based line the document type declaration starts on, when there is one.
    var doctypeLine: Int?
    /// Whether a `<!DOCTYPE` declares entities or refers to an external DTD: JUnit XML never
    /// needs either, and both are how XXE and entity-expansion ("billion laughs") attacks work.
    var hasRiskyDoctype = false
    /// The encoding the XML declaration names (`encoding="UTF-8"`), as written; `nil` when none.
    var declaredEncoding: String?

    /// Encodings the parser reads safely. Debian's libxml2 crashes on some others (a UTF-7
    /// declaration over invalid bytes dereferences null), so they are refused before it sees them.
    static let safeEncodings: Set<String> = [
        "utf-8", "utf8", "utf-16", "utf-16le", "utf-16be", "us-ascii", "ascii", "iso-8859-1", "latin1",
        "iso-latin-1", "windows-1252",
    ]

    /// Whether the bytes, after a byte order mark, start like XML text: with `<` or white space,
    /// and hold no NUL before the root element. Debian's libxml2 crashes on some that do not (NULs
    /// make it guess UCS-4, then a UTF-8 declaration switches it), so they are refused first.
    var startsLikeXML = true

    /// Whether the declared encoding, if any, is one of ``safeEncodings``.
    var hasSafeEncoding: Bool { declaredEncoding.map { Self.safeEncodings.contains($0.lowercased()) } ?? true }

    /// Whether the root element is one JUnit XML opens with.
    var opensJUnit: Bool { rootElement == "testsuites" || rootElement == "testsuite" }

    /// Reads the prolog of `prefix`: an optional byte order mark, XML declaration, comments,
    /// processing instructions and document type declaration, up to the root element's name.
    init(scanning prefix: Data) {
        let bytes = Self.utf8Bytes(prefix)
        // The parser honours an encoding from the declaration even when it is not closed, so it
        // is read up to the first `>` (found by fuzzing: an unclosed UTF-7 one crashed libxml2).
        if bytes.starts(with: Array("<?xml".utf8)) {
            let end = bytes.firstIndex(of: UInt8(ascii: ">")) ?? min(bytes.count, 1024)
            declaredEncoding = Self.encoding(in: bytes[..<end])
        }
        if let first = bytes.first {
            startsLikeXML =
                first == UInt8(ascii: "<") || first == 0x20 || first == 0x09 || first == 0x0D || first == 0x0A
        }
        var index = 0
        var lines = 1
        func starts(_ text: String) -> Bool {
            let pattern = Array(text.utf8)
            return bytes.count - index >= pattern.count
                && bytes[index..<index + pattern.count].elementsEqual(pattern)
        }
        func starts(at position: Int, _ text: String) -> Bool {
            let pattern = Array(text.utf8)
            return bytes.count - position >= pattern.count
                && bytes[position..<position + pattern.count].elementsEqual(pattern)
        }
        func skip(past terminator: String) -> Bool {
            let pattern = Array(terminator.utf8)
            while index < bytes.count {
                if starts(terminator) {
                    index += pattern.count
                    return true
                }
                if bytes[index] == 0x0A { lines += 1 }
                index += 1
            }
            return false
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
                if byte == 0x0A { lines += 1 }
                index += 1
            } else if starts("<?") {
                guard skip(past: "?>") else { return }
            } else if starts("<!--") {
                guard skip(past: "-->") else { return }
            } else if starts("<!DOCTYPE") {
                let end = Self.endOfDoctype(bytes, from: index)
                let declaration = bytes[index..<end]
                doctypeLine = lines
                hasRiskyDoctype = Self.isRisky(declaration)
                lines += declaration.filter { $0 == 0x0A }.count
                guard end < bytes.count else { return }
                index = end + 1
            } else if byte == UInt8(ascii: "<") {
                let nameStart = index + 1
                var nameEnd = nameStart
                while nameEnd < bytes.count, !Self.endsName(bytes[nameEnd]) { nameEnd += 1 }
                guard nameEnd > nameStart, nameEnd < bytes.count else { return }
                rootElement = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
                rootLine = lines
                if bytes[..<nameEnd].contains(0) { startsLikeXML = false }
                return
            } else {
                if bytes[..<index].contains(0) || byte == 0 { startsLikeXML = false }
                return
            }
        }
    }

    /// The index of the `>` closing the document type declaration at `start` (quotes and an
    /// internal subset in brackets may contain `>`), or `bytes.count` when it is not closed.
    private static func endOfDoctype(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        var quote: UInt8?
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">"), depth <= 0 {
                return index
            }
            index += 1
        }
        return bytes.count
    }

    /// The value of `encoding="…"` (or `'…'`) in an XML declaration.
    private static func encoding(in declaration: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: declaration, as: UTF8.self)
        guard let key = text.range(of: "encoding") else { return nil }
        let rest = text[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private static func isRisky(_ declaration: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: declaration, as: UTF8.self)
        let head = text.split(separator: "[", maxSplits: 1).first ?? ""
        return text.contains("<!ENTITY") || head.contains("SYSTEM") || head.contains("PUBLIC")
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "/")
    }

    /// The prefix as UTF-8 without a byte order mark; UTF-16 with a byte order mark is converted.
    private static func utf8Bytes(_ prefix: Data) -> [UInt8] {
        let bytes = [UInt8](prefix)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        let bigEndian = bytes.starts(with: [0xFE, 0xFF])
        guard bigEndian || bytes.starts(with: [0xFF, 0xFE]) else { return bytes }
        var units: [UInt16] = []
        var index = 2
        while index + 1 < bytes.count {
            let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }
}
