/// Why bytes are not one JSON text as RFC 8259 defines it, or hold a number no `Double` can
/// carry, and where.
struct JSONError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    enum Reason: Equatable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case trailingComma
        case leadingZero
        case malformedNumber
        case unterminatedString
        case controlCharacterInString
        case invalidEscape
        case unpairedSurrogate
        case invalidUTF8
        case tooDeep
        case trailingText
        /// The text is JSON, but its top-level value is not the object the reader expects.
        case notAnObject
        /// The number is JSON, but overflows a `Double` or underflows it to zero.
        case numberOutOfRange
    }

    /// One step of the way from the value parsed to the one a problem is in.
    enum PathComponent: Equatable {
        case key(String)
        case index(Int)
    }

    var reason: Reason
    /// The 0-based byte offset the problem was found at.
    var offset: Int
    /// For ``Reason/numberOutOfRange``: the members and elements leading to the number.
    var path: [PathComponent] = []

    init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    var description: String { "\(reason.message) at byte \(offset + 1)" }
}

extension JSONError.Reason {
    /// The problem in words, for people.
    var message: String {
        switch self {
        case .unexpectedEnd: "the text ends too early"
        case .unexpectedByte(let byte): "unexpected \(Self.describe(byte))"
        case .trailingComma: "a comma before a closing bracket"
        case .leadingZero: "a number with a leading zero"
        case .malformedNumber: "a malformed number"
        case .unterminatedString: "an unterminated string"
        case .controlCharacterInString: "an unescaped control character in a string"
        case .invalidEscape: "an invalid escape sequence"
        case .unpairedSurrogate: "an unpaired UTF-16 surrogate escape"
        case .invalidUTF8: "invalid UTF-8"
        case .tooDeep: "arrays or objects nested deeper than \(JSONScanner.maximumDepth) levels"
        case .trailingText: "more text after the JSON value"
        case .notAnObject: "a value that is not an object"
        case .numberOutOfRange: "a number out of the range of a Double"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}
