extension JSONScanner {
    /// Reads the string at the cursor, checking its escapes (surrogates must pair), its UTF-8
    /// and that no control character stands in it unescaped.
    mutating func scanString() throws(JSONError) -> JSONSpan {
        let opening = offset
        let start = offset + 1
        var index = start
        var hasEscapes = false
        while true {
            while index + 8 <= bytes.count,
                Self.isPlainText(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
            }
            guard index < bytes.count else { throw JSONError(.unterminatedString, at: opening) }
            let byte = bytes[index]
            switch byte {
            case ASCII.quote:
                offset = index + 1
                return JSONSpan(kind: .string, start: start, end: index, hasEscapes: hasEscapes)
            case ASCII.backslash:
                guard index + 1 < bytes.count else { throw JSONError(.unterminatedString, at: opening) }
                hasEscapes = true
                index += try escapedScalar(at: index, limit: bytes.count).length
            case 0..<0x20:
                throw JSONError(.controlCharacterInString, at: index)
            case 0x80...:
                guard let length = utf8SequenceLength(at: index) else { throw JSONError(.invalidUTF8, at: index) }
                index += length
            default:
                index += 1
            }
        }
    }

    /// The contents of a string `span` read by ``scanString()``, escapes decoded.
    func string(_ span: JSONSpan) -> String {
        guard span.hasEscapes else { return String(decoding: contents(span), as: UTF8.self) }
        // Every escape is at least as long as the UTF-8 it stands for.
        return String(unsafeUninitializedCapacity: span.end - span.start) { output in
            var read = span.start
            var written = 0
            while read < span.end {
                let byte = bytes[read]
                guard byte == ASCII.backslash else {
                    output[written] = byte
                    written += 1
                    read += 1
                    continue
                }
                // Unreachable for a span `scanString()` read, which checked every escape.
                guard let (scalar, length) = try? escapedScalar(at: read, limit: span.end) else { break }
                written += Self.writeUTF8(scalar, to: output, at: written)
                read += length
            }
            return written
        }
    }

    /// The bytes of a span: a string's contents between its quotes, any other value's text.
    func contents(_ span: JSONSpan) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[span.start..<span.end])
    }

    /// Decodes the escape starting with the backslash at `index`: the scalar it stands for and
    /// how many bytes it takes, a surrogate pair counting as one escape.
    private func escapedScalar(at index: Int, limit: Int) throws(JSONError) -> (scalar: UInt32, length: Int) {
        guard index + 1 < limit else { throw JSONError(.unterminatedString, at: index) }
        switch bytes[index + 1] {
        case ASCII.quote: return (0x22, 2)
        case ASCII.backslash: return (0x5C, 2)
        case ASCII.slash: return (0x2F, 2)
        case ASCII.b: return (0x08, 2)
        case ASCII.f: return (0x0C, 2)
        case ASCII.n: return (0x0A, 2)
        case ASCII.r: return (0x0D, 2)
        case ASCII.t: return (0x09, 2)
        case ASCII.u: break
        default: throw JSONError(.invalidEscape, at: index)
        }
        let unit = try hexUnit(at: index, limit: limit)
        switch unit {
        case 0xD800...0xDBFF:
            let low = index + 6
            guard low + 1 < limit, bytes[low] == ASCII.backslash, bytes[low + 1] == ASCII.u,
                case let trailing = try hexUnit(at: low, limit: limit), (0xDC00...0xDFFF).contains(trailing)
            else { throw JSONError(.unpairedSurrogate, at: index) }
            return (0x10000 + ((unit - 0xD800) << 10) + (trailing - 0xDC00), 12)
        case 0xDC00...0xDFFF:
            throw JSONError(.unpairedSurrogate, at: index)
        default:
            return (unit, 6)
        }
    }

    /// The four hex digits of the `\u` escape at `index`.
    private func hexUnit(at index: Int, limit: Int) throws(JSONError) -> UInt32 {
        guard index + 6 <= limit else { throw JSONError(.invalidEscape, at: index) }
        var unit: UInt32 = 0
        for position in index + 2..<index + 6 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw JSONError(.invalidEscape, at: index)
            }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF), or `nil`.
    private func utf8SequenceLength(at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xE1...0xEF: length = 3
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        for position in index + 2..<index + length where bytes[position] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// Whether eight bytes hold no quote, backslash, control character or non-ASCII byte, with
    /// the usual bit tricks (a byte's high bit survives `x - 0x01` and `~x` only when it was 0).
    private static func isPlainText(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(ASCII.quote))
        let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
        let special =
            ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
            | ((word &- ones &* 0x20) & ~word) | word
        return special & highBits == 0
    }

    private static func writeUTF8(_ scalar: UInt32, to output: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int
    {
        switch scalar {
        case 0..<0x80:
            output[index] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[index] = UInt8(0xC0 | scalar >> 6)
            output[index + 1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[index] = UInt8(0xE0 | scalar >> 12)
            output[index + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[index + 2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[index] = UInt8(0xF0 | scalar >> 18)
            output[index + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[index + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[index + 3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
