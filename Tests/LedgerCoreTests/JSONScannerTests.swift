import Foundation
import Testing

@testable import LedgerCore

/// Parses `bytes` with the strict scanner.
func scanJSON(_ bytes: [UInt8]) -> Result<JSONValue, JSONError> {
    bytes.withUnsafeBytes { raw in Result { () throws(JSONError) in try JSONValue(parsing: raw) } }
}

func scanJSON(_ text: String) -> Result<JSONValue, JSONError> { scanJSON(Array(text.utf8)) }

/// Foundation's reading of the same bytes, the reference for valid text.
func foundationJSON(_ bytes: [UInt8]) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
}

/// A small deterministic random number generator (SplitMix64), so that failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

@Suite struct JSONScannerTests {
    @Test(arguments: [
        "null", "true", "false", "0", "-0", "12", "-3.25e2", #""""#, #""text""#, "[]", "{}", " [ 1 , 2 ] ",
        #"{"a":[1,{"b":null,"c":[true,false]}],"d":"e","f":{}}"#,
        " \t\r\n{ \"spaced\" :\n[ 1 ,\t\"x\" ] } \r\n",
        #"[[[[[]]]],{"":{"":""}}]"#,
        #"{"big":12345678901234567890123,"small":1e-300,"neg":-0.5E+3}"#,
    ])
    func validTextReadsAsFoundationReadsIt(_ text: String) throws {
        let value = try scanJSON(text).get()
        #expect(value == foundationJSON(Array(text.utf8)))
    }

    @Test func escapesDecode() throws {
        let text = #""q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20AC\uD83D\uDE00 \u0000 \uFFFF""#
        #expect(try scanJSON(text).get() == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t Aé€😀 \u{0} \u{FFFF}"))
        #expect(try scanJSON(#""\uABCD\uabcd\uD834\uDD1E""#).get() == .string("\u{ABCD}\u{ABCD}𝄞"))
    }

    @Test func rawUnicodePassesThrough() throws {
        let text = "\"é € 😀 𝄞 \u{7F} 日本語\""
        #expect(try scanJSON(text).get() == .string("é € 😀 𝄞 \u{7F} 日本語"))
        #expect(try scanJSON("{\"ключ\":\"значение\"}").get() == .object(["ключ": "значение"]))
    }

    @Test func escapedAndRawTextMix() throws {
        let text = String(repeating: "abcdefgh\\n€", count: 20)
        let expected = String(repeating: "abcdefgh\n€", count: 20)
        #expect(try scanJSON("\"\(text)\"").get() == .string(expected))
    }

    @Test(arguments: [
        ("", JSONError.Reason.unexpectedEnd, 0),
        ("   ", .unexpectedEnd, 3),
        ("{", .unexpectedEnd, 1),
        (#"{"a":1"#, .unexpectedEnd, 6),
        (#"{"a":"#, .unexpectedEnd, 5),
        ("[1,2", .unexpectedEnd, 4),
        (#"{"a":1,}"#, .trailingComma, 7),
        ("[1,]", .trailingComma, 3),
        ("[1, ]", .trailingComma, 4),
        ("[1,,2]", .unexpectedByte(UInt8(ascii: ",")), 3),
        ("[,1]", .unexpectedByte(UInt8(ascii: ",")), 1),
        (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1")), 5),
        (#"{"a":1 "b":2}"#, .unexpectedByte(UInt8(ascii: "\"")), 7),
        ("{a:1}", .unexpectedByte(UInt8(ascii: "a")), 1),
        ("{'a':1}", .unexpectedByte(UInt8(ascii: "'")), 1),
        ("{1:1}", .unexpectedByte(UInt8(ascii: "1")), 1),
        ("[1}", .unexpectedByte(UInt8(ascii: "}")), 2),
        (#"{"a":1]"#, .unexpectedByte(UInt8(ascii: "]")), 6),
        (#""abc"#, .unterminatedString, 0),
        (#""abc\"#, .unterminatedString, 0),
        (#""abc\""#, .unterminatedString, 0),
        ("01", .leadingZero, 0),
        ("-01", .leadingZero, 0),
        ("00", .leadingZero, 0),
        ("1.", .malformedNumber, 0),
        ("1.e5", .malformedNumber, 0),
        ("-", .malformedNumber, 0),
        ("--1", .malformedNumber, 0),
        ("1e", .malformedNumber, 0),
        ("1e+", .malformedNumber, 0),
        ("-a", .malformedNumber, 0),
        (".5", .unexpectedByte(UInt8(ascii: ".")), 0),
        ("+1", .unexpectedByte(UInt8(ascii: "+")), 0),
        ("0x10", .trailingText, 1),
        ("1 2", .trailingText, 2),
        ("{} x", .trailingText, 3),
        ("{}}", .trailingText, 2),
        ("NaN", .unexpectedByte(UInt8(ascii: "N")), 0),
        ("Infinity", .unexpectedByte(UInt8(ascii: "I")), 0),
        ("-Infinity", .malformedNumber, 0),
        ("tru", .unexpectedEnd, 3),
        ("True", .unexpectedByte(UInt8(ascii: "T")), 0),
        ("nul", .unexpectedEnd, 3),
        ("nulll", .trailingText, 4),
        ("fals e", .unexpectedByte(UInt8(ascii: " ")), 4),
        (#""\x""#, .invalidEscape, 1),
        (#""\U0041""#, .invalidEscape, 1),
        (#""\u12G4""#, .invalidEscape, 1),
        (#""\u12""#, .invalidEscape, 1),
        (#""\'""#, .invalidEscape, 1),
        (#""\ud800""#, .unpairedSurrogate, 1),
        (#""\udc00""#, .unpairedSurrogate, 1),
        (#""\uDBFF\uDBFF""#, .unpairedSurrogate, 1),
        (#""\ud800\u0041""#, .unpairedSurrogate, 1),
        (#""\ud800x""#, .unpairedSurrogate, 1),
        (#""a\ud800""#, .unpairedSurrogate, 2),
        (#"/* comment */ 1"#, .unexpectedByte(UInt8(ascii: "/")), 0),
        ("\u{0B}1", .unexpectedByte(0x0B), 0),
        ("\u{0C}1", .unexpectedByte(0x0C), 0),
        ("1\u{0}", .trailingText, 1),
        ("\u{A0}1", .unexpectedByte(0xC2), 0),
        ("[1]\u{FEFF}", .trailingText, 3),
    ])
    func malformedTextIsRefused(_ text: String, _ reason: JSONError.Reason, _ offset: Int) {
        #expect(scanJSON(text) == .failure(JSONError(reason, at: offset)))
    }

    @Test(arguments: [
        ("tab", [0x09]), ("newline", [0x0A]), ("carriage return", [0x0D]), ("NUL", [0x00]), ("unit separator", [0x1F]),
    ])
    func controlCharactersInStringsAreRefused(_ name: String, _ bytes: [UInt8]) {
        let text = Array(#"{"key":"ab"#.utf8) + bytes + Array(#"cd"}"#.utf8)
        #expect(scanJSON(text) == .failure(JSONError(.controlCharacterInString, at: 10)))
        let long = Array("\"0123456789abcdef".utf8) + bytes + Array("\"".utf8)
        #expect(scanJSON(long) == .failure(JSONError(.controlCharacterInString, at: 17)))
    }

    @Test(arguments: [
        ("lone continuation byte", [0x80]),
        ("invalid byte", [0xFF]),
        ("invalid byte FE", [0xFE]),
        ("overlong slash", [0xC0, 0xAF]),
        ("overlong two bytes", [0xC1, 0xBF]),
        ("overlong three bytes", [0xE0, 0x80, 0xAF]),
        ("overlong four bytes", [0xF0, 0x80, 0x80, 0xAF]),
        ("encoded surrogate", [0xED, 0xA0, 0x80]),
        ("beyond U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("five-byte lead", [0xF8, 0x88, 0x80, 0x80, 0x80]),
        ("F5 lead", [0xF5, 0x80, 0x80, 0x80]),
        ("truncated euro", [0xE2, 0x82]),
        ("truncated emoji", [0xF0, 0x9F, 0x98]),
        ("lead then ASCII", [0xC3, 0x41]),
    ])
    func invalidUTF8InStringsIsRefused(_ name: String, _ bytes: [UInt8]) {
        let text = Array(#"["ok","#.utf8) + [0x22] + bytes + Array(#"tail"]"#.utf8)
        #expect(scanJSON(text) == .failure(JSONError(.invalidUTF8, at: 7)))
        // The same bytes at the very end of the text, where a sequence would run past it.
        #expect(scanJSON([0x22] + bytes) == .failure(JSONError(.invalidUTF8, at: 1)))
    }

    @Test func invalidUTF8OutsideStringsIsRefused() {
        #expect(scanJSON([0xFF]) == .failure(JSONError(.unexpectedByte(0xFF), at: 0)))
        #expect(scanJSON([0x5B, 0xC3, 0xA9, 0x5D]) == .failure(JSONError(.unexpectedByte(0xC3), at: 1)))
    }

    @Test func aByteOrderMarkIsSkippedAtTheStartOnly() throws {
        #expect(try scanJSON([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).get() == [1])
        #expect(
            scanJSON(Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
                == .failure(JSONError(.unexpectedByte(0xEF), at: 1)))
    }

    @Test func nestingStopsAtTheLimit() throws {
        let limit = JSONScanner.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try scanJSON(deepest).get() == foundationJSON(Array(deepest.utf8)))
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(scanJSON(tooDeep) == .failure(JSONError(.tooDeep, at: limit)))
        let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(scanJSON(objects) == .failure(JSONError(.tooDeep, at: 5 * limit)))
    }

    @Test func hostileNestingFailsWithoutExhaustingTheStack() {
        let arrays = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(scanJSON(arrays) == .failure(JSONError(.tooDeep, at: JSONScanner.maximumDepth)))
        let unclosed = String(repeating: "[", count: 100_000)
        #expect(scanJSON(unclosed) == .failure(JSONError(.tooDeep, at: JSONScanner.maximumDepth)))
        let objects = String(repeating: #"{"":"#, count: 100_000)
        #expect(scanJSON(objects) == .failure(JSONError(.tooDeep, at: 4 * JSONScanner.maximumDepth)))
        // Skipping (not building values) has the same limit.
        let line = Array(#"{"x":"#.utf8) + Array(arrays.utf8) + Array("}".utf8)
        let skipped = line.withUnsafeBytes { raw in
            Result { () throws(JSONError) in
                var scanner = JSONScanner(raw)
                return try scanner.scanValue(depth: 1)
            }
        }
        #expect(skipped == .failure(JSONError(.tooDeep, at: 5 + JSONScanner.maximumDepth - 1)))
    }

    @Test func aTenMegabyteStringReads() throws {
        let plain = String(repeating: "0123456789abcdef", count: 10 << 16)
        #expect(try scanJSON("\"\(plain)\"").get() == .string(plain))
        let unicode = String(repeating: "é€😀\\n\\u00e9", count: 1 << 19)
        let expected = String(repeating: "é€😀\né", count: 1 << 19)
        #expect(try scanJSON("[\"\(unicode)\"]").get() == [.string(expected)])
        #expect(scanJSON("\"\(plain)") == .failure(JSONError(.unterminatedString, at: 0)))
    }

    @Test func duplicateKeysKeepTheFirstButAreStillValidated() throws {
        #expect(try scanJSON(#"{"a":1,"a":2,"b":{"c":true,"c":false}}"#).get() == ["a": 1, "b": ["c": true]])
        #expect(try scanJSON(#"{"a":1,"a":1e999}"#).get() == ["a": 1])
        #expect(scanJSON(#"{"a":1,"a":tru}"#) == .failure(JSONError(.unexpectedByte(UInt8(ascii: "}")), at: 14)))
        #expect(foundationJSON(Array(#"{"a":1,"a":2}"#.utf8)) == ["a": 1])
    }

    @Test func aNumberOutOfRangeNamesItsPath() throws {
        var error = JSONError(.numberOutOfRange, at: 13)
        error.path = [.key("a"), .index(1), .key("b")]
        #expect(scanJSON(#"{"a":[1,{"b":-1e999}]}"#) == .failure(error))
        #expect(scanJSON("1e-400") == .failure(JSONError(.numberOutOfRange, at: 0)))
        #expect(try scanJSON("0e-400").get() == 0)
    }
}

extension JSONScannerTests {
    /// The number `text` read as a `Double` and as an `Int`.
    func number(_ text: String) throws -> (double: Double?, int: Int?) {
        try Array(text.utf8).withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            let span = try scanner.scanNumber()
            guard scanner.isAtEnd else { throw JSONError(.trailingText, at: scanner.offset) }
            return (scanner.double(span), scanner.int(span))
        }
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("-0.0", -0.0), ("0.0e5", 0.0), ("1", 1.0), ("-1", -1.0), ("1.5", 1.5),
        ("1e308", 1e308), ("-1e308", -1e308), ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ("5e-324", .leastNonzeroMagnitude), ("2.2250738585072014e-308", .leastNormalMagnitude),
        ("2.2250738585072011e-308", Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)), ("1E+2", 100), ("1e-2", 0.01),
        ("0.1", 0.1),
        ("123456789012345678901234567890", 1.2345678901234568e29), ("9007199254740993", 9_007_199_254_740_992),
        ("0.1000000000000000055511151231257827021181583404541015625", 0.1), ("1700000000.002", 1_700_000_000.002),
        ("0.00000000000000000000000000000000000000001", 1e-41), ("100000000000000000000000e-23", 1),
    ])
    func numbersReadAsDoubles(_ text: String, _ expected: Double) throws {
        let value = try #require(try number(text).double)
        #expect(value == expected)
        #expect(value.sign == expected.sign)
        #expect(value == Double(text))
    }

    @Test(arguments: ["1e309", "-1e309", "1e400", "1.8e308", "1e-400", "-2e-324", "1e99999999999999999999"])
    func numbersBeyondADoubleAreRefused(_ text: String) throws {
        #expect(try number(text).double == nil)
    }

    @Test(
        arguments: [
            ("1", 1), ("-0", 0), ("1.0", 1), ("1e2", 100), ("1.5e1", 15), ("-0.0", 0), ("10e-1", 1), ("1e-400", 0),
            ("9223372036854775807", .max), ("-9223372036854775808", .min), ("1.00000000000000000001", 1),
        ] as [(String, Int)])
    func numbersReadAsIntegersAsFoundationReadsThem(_ text: String, _ expected: Int) throws {
        #expect(try number(text).int == expected)
    }

    @Test(arguments: [
        "1.5", "0.5", "-1.5", "9223372036854775808", "-9223372036854775809", "1e30", "1e400",
        "9223372036854775807.0", "-9223372036854775808.0", "123456789012345678901234567890",
    ])
    func numbersThatAreNoIntAreRefused(_ text: String) throws {
        #expect(try number(text).int == nil)
    }

    @Test func doublesRoundAsTheStandardLibraryRoundsThem() throws {
        var random = SplitMix64(state: 0x5EED)
        for round in 0..<20_000 {
            let text: String
            if round.isMultiple(of: 2) {
                let value = Double(bitPattern: random.next())
                guard value.isFinite else { continue }
                text = round.isMultiple(of: 4) ? "\(value)" : String(format: "%.17g", value)
            } else {
                let digits = (0..<Int.random(in: 1...25, using: &random)).map { _ in
                    String(Int.random(in: 0...9, using: &random))
                }
                var mantissa = digits.joined().drop { $0 == "0" }
                if mantissa.isEmpty { mantissa = "0" }
                let point = Int.random(in: 0...mantissa.count, using: &random)
                if point > 0 && point < mantissa.count {
                    mantissa.insert(".", at: mantissa.index(mantissa.startIndex, offsetBy: point))
                }
                text =
                    String(mantissa)
                    + (Bool.random(using: &random) ? "e\(Int.random(in: -40...40, using: &random))" : "")
            }
            let expected = try #require(Double(text), "\(text)")
            let read = try number(text).double
            #expect(read == expected, "\(text)")
            #expect(read.map { $0.sign == expected.sign } ?? false, "\(text)")
        }
    }

    /// Up to 19 digits times 10^±27 are rounded in integers: timestamps like `1700000000.0020001`.
    @Test func longMantissasRoundAsTheStandardLibraryRoundsThem() throws {
        var random = SplitMix64(state: 0x7105)
        var texts = [
            "1700000000.0020001", "9007199254740993", "9007199254740995", "9007199254740993e-3", "18446744073709551615",
            "9999999999999999999e27", "9999999999999999999e-27", "1000000000000000001e-27", "4503599627370497.5",
            "2.0000000000000003", "0.30000000000000004", "1.0000000000000002220446049250313080847263336181640625",
        ]
        for _ in 0..<20_000 {
            let digits = String(UInt64.random(in: 1..<10_000_000_000_000_000_000, using: &random))
            let point = Int.random(in: 1...digits.count, using: &random)
            let mantissa = point == digits.count ? digits : String(digits.prefix(point)) + "." + digits.dropFirst(point)
            texts.append("\(mantissa)e\(Int.random(in: -27...27, using: &random))")
        }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            #expect(try number(text).double == expected, "\(text)")
        }
    }

    /// Random damage to valid text is refused or read as Foundation reads it; the scanner is
    /// never more lenient than Foundation's `JSONDecoder`.
    @Test func damagedTextIsNeverReadDifferentlyFromFoundation() {
        let seeds = [
            #"{"a":[1,-2.5e3,{"b":null,"c":[true,false]}],"d":"e\u00e9\n","f":{}}"#,
            #"[0,"x\\y",{"k":"😀"},[],1e-3,-0]"#,
        ]
        var random = SplitMix64(state: 7)
        let alphabet = Array(#"{}[],:"\ -+.eE0123456789tfnulrsa/"#.utf8) + [0x00, 0x09, 0x0A, 0x80, 0xC3, 0xFF]
        for _ in 0..<5_000 {
            var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &random)].utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[index] = byte
                case 1: bytes.insert(byte, at: index)
                case 2: if bytes.count > 1 { bytes.remove(at: index) }
                default: bytes = Array(bytes[..<index])
                }
            }
            if case .success(let value) = scanJSON(bytes) {
                #expect(value == foundationJSON(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }
}
