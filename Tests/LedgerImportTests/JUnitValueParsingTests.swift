import Foundation
import Testing

@testable import LedgerImport

/// The small readers behind the importer: timestamps, durations, `file:line` references and
/// bounded text.
struct JUnitValueParsingTests {
    @Test(arguments: [
        ("2007-11-02T23:13:49", 1_194_045_229.0),
        ("2007-11-02T23:13:49Z", 1_194_045_229.0),
        ("2007-11-02T23:13:49.5z", 1_194_045_229.5),
        ("2025-11-15T11:51:49.548396-05:00", 1_763_225_509.548396),
        ("2024-02-29T12:00:00,25+0530", 1_709_188_200.25),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2024-01-01T00:00Z", 1_704_067_200.0),
    ])
    func readsISO8601Timestamps(text: String, expected: Double) throws {
        let value = try #require(JUnitTimestamp.parse(text))
        #expect(abs(value - expected) < 1e-6)
    }

    @Test(arguments: [
        "", "yesterday", "2023-02-29T00:00:00", "2024-13-01T00:00:00", "2024-01-01T24:00:00",
        "2024-01-01T00:00:00+25:00", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00 trailing",
        "1700000000", "2024-1-1T00:00:00",
    ])
    func refusesWhatIsNotATimestamp(text: String) {
        #expect(JUnitTimestamp.parse(text) == nil)
    }

    @Test func readsDurations() {
        #expect(JUnitDuration.parse(nil) == 0)
        #expect(JUnitDuration.parse("12,345,678.9") == 12_345_678.9)
        #expect(JUnitDuration.parse("inf") == 0)
        #expect(JUnitDuration.parse("7.5e-05") == 0.000075)
    }

    @Test(arguments: [
        ("/Users/me/App/Tests/A.swift:42: error: -[A test] : XCTAssertTrue failed", "/Users/me/App/Tests/A.swift", 42),
        ("/Users/me/My App/A.swift:7 - XCTAssertEqual failed", "/Users/me/My App/A.swift", 7),
        ("A.swift:122: Caught error", "A.swift", 122),
        ("    tests/test_x.py:12: AssertionError", "tests/test_x.py", 12),
        ("file:///src/B.swift:3:14: error", "/src/B.swift", 3),
        ("Sources/C.swift:9", "Sources/C.swift", 9),
    ])
    func findsLeadingFileLineReferences(text: String, file: String, line: Int) throws {
        let found = try #require(JUnitIssueLocator.locate(in: [text], classname: "A", name: "t"))
        #expect(found.file == file)
        #expect(found.line == line)
    }

    @Test(arguments: [
        "Expectation failed: (a → 1) == 2", "2023-06-23 17:27:31,351 INFO", "failed",
        "junit.framework.AssertionFailedError: built to fail\n\tat junit.framework.Assert.fail(Assert.java:57)",
        "see A.swift:3: here", "Version:2 of it", "noextension:12: x", ".hidden:3:",
    ])
    func ignoresTextWithoutALeadingReference(text: String) {
        #expect(JUnitIssueLocator.locate(in: [text], classname: "com.acme.T", name: "t") == nil)
    }

    @Test func prefersTheMessageThenTheTextsFirstReference() throws {
        let found = try #require(
            JUnitIssueLocator.locate(in: ["A.swift:1: first", "B.swift:2: second"], classname: "X", name: "y"))
        #expect(found.file == "A.swift")
        let fromText = try #require(
            JUnitIssueLocator.locate(in: ["no place", "x\nB.swift:2: y\nC.swift:3: z"], classname: "X", name: "y"))
        #expect(fromText.file == "B.swift")
    }

    @Test func findsTheJavaFrameOfTheTestMethodOnly() throws {
        let trace = """
            java.lang.AssertionError: nope
            \tat org.junit.Assert.fail(Assert.java:88)
            \tat com.acme.CartTest.addsItem(CartTest.java:31)
            """
        let found = try #require(
            JUnitIssueLocator.locate(in: ["nope", trace], classname: "com.acme.CartTest", name: "addsItem"))
        #expect(found.file == "CartTest.java")
        #expect(found.line == 31)
        #expect(JUnitIssueLocator.locate(in: [trace], classname: "com.acme.CartTest", name: "other") == nil)
    }

    @Test func readsXcodeDocumentLocationsCountingFromZero() throws {
        let message =
            "XCTAssertTrue failed (file:///p/T.swift#CharacterRangeLen=0&EndingLineNumber=9&StartingLineNumber=9)"
        let found = try #require(JUnitIssueLocator.locate(in: [message], classname: "T", name: "t"))
        #expect(found.file == "/p/T.swift")
        #expect(found.line == 10)
    }

    @Test func plainDecimalDurationsReadExactlyAsDoubleDoes() throws {
        // The fast path for digits-and-a-point must round as `Double(_:)` (strtod) does.
        var texts = [
            "0", "0.0", ".5", "5.", "00.25", "0.000832083", "16.05245804786682", "123456789012345",
            "0.1234567890123456789012", "9007199254740993", "1234567890.12345678", "0.30000000000000004",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let whole = String(UInt64.random(in: 0...99_999, using: &generator))
            let fraction = String(UInt64.random(in: 0...999_999_999_999, using: &generator))
            texts.append(whole + "." + String(fraction.prefix(Int.random(in: 1...12, using: &generator))))
        }
        for text in texts {
            let expected = min(try #require(Double(text)), JUnitDuration.maximum)
            #expect(JUnitDuration.parse(text) == expected, "\(text)")
        }
        #expect(JUnitDuration.parse(".") == 0)
        #expect(JUnitDuration.parse("1.2.3") == 0)
    }

    @Test func blankTextIsToldApartFromText() {
        #expect(JUnitText.nonBlank("a") == "a")
        #expect(JUnitText.nonBlank(" a") == " a")
        #expect(JUnitText.nonBlank("\u{00A0}é") == "\u{00A0}é")
        #expect(JUnitText.nonBlank(" \t\r\n") == nil)
        #expect(JUnitText.nonBlank("\u{00A0}\u{2003}") == nil)
        #expect(JUnitText.nonBlank("") == nil)
        #expect(JUnitText.nonBlank(nil) == nil)
    }

    @Test func headBufferKeepsWholeCharactersUpToItsLimit() {
        var buffer = JUnitTextBuffer(keep: .head(5))
        buffer.append("ab")
        buffer.append("cé€")  // é is 2 bytes, € is 3: only "cé" fits in 5
        buffer.append("more")
        #expect(buffer.result == "abcé")
        #expect(buffer.truncated)
    }

    @Test func tailBufferKeepsTheLastWholeCharacters() {
        var buffer = JUnitTextBuffer(keep: .tail(4))
        for piece in ["012345", "6789", "€x"] { buffer.append(piece) }
        #expect(buffer.result == "…€x")
        var short = JUnitTextBuffer(keep: .tail(10))
        short.append("ok")
        #expect(short.result == "ok")
        #expect(!short.truncated)
    }
}
