/// A strict reader of JSON text (RFC 8259) over UTF-8 bytes.
///
/// It validates every byte it passes over, hands back where values lie as ``JSONSpan``s and
/// materializes only what it is asked for (see the `string`, `double` and `int` readers).
/// Arrays and objects nest at most ``maximumDepth`` levels, so hostile input cannot exhaust the
/// stack.
struct JSONScanner {
    /// The deepest nesting of arrays and objects accepted, the top level counting as 1, as with
    /// Foundation's `JSONDecoder`.
    static let maximumDepth = 512

    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, not consumed.
    func peek() throws(JSONError) -> UInt8 {
        guard offset < bytes.count else { throw JSONError(.unexpectedEnd, at: offset) }
        return bytes[offset]
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn: offset += 1
            default: return
            }
        }
    }

    /// Skips a UTF-8 byte order mark at the start, which RFC 8259 lets a reader ignore.
    mutating func skipByteOrderMark() {
        guard offset == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return }
        offset = 3
    }

    /// Fails unless only whitespace is left.
    mutating func expectEnd() throws(JSONError) {
        skipWhitespace()
        guard isAtEnd else { throw JSONError(.trailingText, at: offset) }
    }

    /// Reads and validates one value of any kind; `depth` is its nesting level.
    mutating func scanValue(depth: Int) throws(JSONError) -> JSONSpan {
        switch try peek() {
        case ASCII.quote: return try scanString()
        case ASCII.openBrace: return try scanObject(depth: depth) { _, _ in }
        case ASCII.openBracket: return try scanArray(depth: depth) { _ in }
        case ASCII.minus, ASCII.zero...ASCII.nine: return try scanNumber()
        case ASCII.t: return try scanLiteral("true", .true)
        case ASCII.f: return try scanLiteral("false", .false)
        case ASCII.n: return try scanLiteral("null", .null)
        case let byte: throw JSONError(.unexpectedByte(byte), at: offset)
        }
    }

    /// Reads the object at the cursor, handing each member's key and value to `visit` in order.
    mutating func scanObject(
        depth: Int, _ visit: (_ key: JSONSpan, _ value: JSONSpan) -> Void
    ) throws(JSONError) -> JSONSpan {
        let start = offset
        if let empty = try open(.object, closing: ASCII.closeBrace, depth: depth) { return empty }
        while true {
            let byte = try peek()
            guard byte == ASCII.quote else { throw JSONError(.unexpectedByte(byte), at: offset) }
            let key = try scanString()
            skipWhitespace()
            try consume(ASCII.colon)
            skipWhitespace()
            let value = try scanValue(depth: depth + 1)
            visit(key, value)
            skipWhitespace()
            if try closes(ASCII.closeBrace) { return JSONSpan(kind: .object, start: start, end: offset) }
        }
    }

    /// Reads the array at the cursor, handing each element to `visit` in order.
    mutating func scanArray(depth: Int, _ visit: (_ element: JSONSpan) -> Void) throws(JSONError) -> JSONSpan {
        let start = offset
        if let empty = try open(.array, closing: ASCII.closeBracket, depth: depth) { return empty }
        while true {
            visit(try scanValue(depth: depth + 1))
            skipWhitespace()
            if try closes(ASCII.closeBracket) { return JSONSpan(kind: .array, start: start, end: offset) }
        }
    }

    /// Steps past the opening bracket at the cursor and the white space after it; the whole value
    /// when `closing` follows at once (an empty object or array), else `nil`.
    private mutating func open(_ kind: JSONSpan.Kind, closing: UInt8, depth: Int) throws(JSONError) -> JSONSpan? {
        let start = offset
        guard depth <= Self.maximumDepth else { throw JSONError(.tooDeep, at: start) }
        offset += 1
        skipWhitespace()
        guard try peek() == closing else { return nil }
        offset += 1
        return JSONSpan(kind: kind, start: start, end: offset)
    }

    /// After a member or element: consumes `,` (then `false`) or the closing bracket (then `true`).
    mutating func closes(_ bracket: UInt8) throws(JSONError) -> Bool {
        let byte = try peek()
        if byte == bracket {
            offset += 1
            return true
        }
        guard byte == ASCII.comma else { throw JSONError(.unexpectedByte(byte), at: offset) }
        offset += 1
        skipWhitespace()
        if try peek() == bracket { throw JSONError(.trailingComma, at: offset) }
        return false
    }

    mutating func consume(_ expected: UInt8) throws(JSONError) {
        let byte = try peek()
        guard byte == expected else { throw JSONError(.unexpectedByte(byte), at: offset) }
        offset += 1
    }

    private mutating func scanLiteral(_ word: StaticString, _ kind: JSONSpan.Kind) throws(JSONError) -> JSONSpan {
        let start = offset
        for index in 0..<word.utf8CodeUnitCount {
            let byte = try peek()
            guard byte == word.utf8Start[index] else { throw JSONError(.unexpectedByte(byte), at: offset) }
            offset += 1
        }
        return JSONSpan(kind: kind, start: start, end: offset)
    }
}
