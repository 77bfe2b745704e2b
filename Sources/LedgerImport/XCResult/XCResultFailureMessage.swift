import Foundation
import LedgerCore

/// A `Failure Message` node's text, `File.swift:129: XCTAssertTrue failed`, read for its place.
struct XCResultFailureMessage: Equatable {
    /// The whole text, as Xcode gives it.
    var text: String
    var file: String?
    var line: Int?

    /// Reads `text`: a leading `<file with extension>:<line>: ` is the place.
    init(_ text: String) {
        self.text = text
        var search = text.startIndex
        while let colon = text[search...].firstIndex(of: ":") {
            let after = text[text.index(after: colon)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            let file = text[..<colon]
            if let line = Int(digits), after[digits.endIndex...].first == ":", file.contains("."),
                !file.contains(": ")
            {
                self.file = String(file)
                self.line = line
                return
            }
            search = text.index(after: colon)
        }
    }

    /// What the text after the place says: `Caught error: …` (Swift Testing) and `Uncaught …`
    /// are errors, `… crashed …` a crash, anything else an assertion.
    var kind: LedgerEvent.IssueKind {
        var rest = Substring(text)
        if let line, let range = text.range(of: ":\(line): ") { rest = text[range.upperBound...] }
        if rest.hasPrefix("Caught error") || rest.hasPrefix("Uncaught") { return .error }
        if rest.hasPrefix("Test crashed") || rest.contains(" crashed with signal") { return .crash }
        return .assertion
    }
}
