extension JSONValue {
    /// Parses one JSON text strictly (RFC 8259); of duplicate keys the first is kept, as
    /// Foundation's `JSONDecoder` keeps it.
    init(parsing bytes: UnsafeRawBufferPointer) throws(JSONError) {
        var scanner = JSONScanner(bytes)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        self = try scanner.parseValue(depth: 1)
        try scanner.expectEnd()
    }
}

extension JSONScanner {
    /// Reads the value at the cursor into a ``JSONValue``; `depth` is its nesting level.
    ///
    /// A number beyond a `Double` throws ``JSONError/Reason/numberOutOfRange`` with the path to it.
    /// Values under a repeated key are validated but not read.
    mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        switch try peek() {
        case ASCII.quote: return .string(string(try scanString()))
        case ASCII.openBrace: return try parseObject(depth: depth)
        case ASCII.openBracket: return try parseArray(depth: depth)
        default: break
        }
        let span = try scanValue(depth: depth)
        switch span.kind {
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        default:
            guard let number = double(span) else { throw JSONError(.numberOutOfRange, at: span.start) }
            return .number(number)
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw JSONError(.tooDeep, at: offset) }
        offset += 1
        skipWhitespace()
        var members: [String: JSONValue] = [:]
        if try peek() == ASCII.closeBrace {
            offset += 1
            return .object(members)
        }
        while true {
            let byte = try peek()
            guard byte == ASCII.quote else { throw JSONError(.unexpectedByte(byte), at: offset) }
            let key = string(try scanString())
            skipWhitespace()
            try consume(ASCII.colon)
            skipWhitespace()
            if members[key] == nil {
                do {
                    members[key] = try parseValue(depth: depth + 1)
                } catch {
                    throw error.within(.key(key))
                }
            } else {
                _ = try scanValue(depth: depth + 1)
            }
            skipWhitespace()
            if try closes(ASCII.closeBrace) { return .object(members) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw JSONError(.tooDeep, at: offset) }
        offset += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if try peek() == ASCII.closeBracket {
            offset += 1
            return .array(elements)
        }
        while true {
            do {
                elements.append(try parseValue(depth: depth + 1))
            } catch {
                throw error.within(.index(elements.count))
            }
            skipWhitespace()
            if try closes(ASCII.closeBracket) { return .array(elements) }
        }
    }
}

extension JSONError {
    /// The same error one level further out: a number out of range is then under `component`.
    fileprivate func within(_ component: PathComponent) -> JSONError {
        guard reason == .numberOutOfRange else { return self }
        var outer = self
        outer.path.insert(component, at: 0)
        return outer
    }
}
