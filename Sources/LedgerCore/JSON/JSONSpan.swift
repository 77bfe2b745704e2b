/// Where one JSON value lies in the bytes a ``JSONScanner`` read, and what kind of value it is.
struct JSONSpan: Equatable {
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, array, object
    }

    var kind: Kind
    /// Strings: the offset just after the opening quote; other values: where the text starts.
    var start: Int
    /// Strings: the offset of the closing quote; other values: just after the text.
    var end: Int
    /// Strings: the contents hold a backslash escape, so they are not the text as it stands.
    var hasEscapes = false
    /// Numbers: the text has neither a fraction nor an exponent.
    var isInteger = false

    /// Where the value's text starts: a string's opening quote, any other value's first byte.
    var textStart: Int { kind == .string ? start - 1 : start }
}
