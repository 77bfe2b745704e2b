import Foundation

/// Finds where a failure happened from the `file:line` references in its message and text.
///
/// Recognised, first match wins, message before text:
/// - a line that starts with `path/File.ext:42` followed by `:`, a space or the end (XCTest
///   `/path/File.swift:42: error: …`, xcbeautify `File.swift:42 - reason`, trainer
///   `File.swift:122: Caught error`, pytest's `tests/test_x.py:12: AssertionError`);
/// - an Xcode document location `/path/File.swift#…StartingLineNumber=35…` (legacy trainer),
///   whose line numbers start at 0;
/// - the Java stack frame of the test itself, `at <classname>.<name>(File.java:23)`.
/// Frames of other Java methods are ignored: they point into the test framework.
enum JUnitIssueLocator {
    /// The first reference found in `texts`, or `nil`.
    static func locate(in texts: [String], classname: String, name: String)
        -> (file: String, line: Int)?
    {
        for text in texts where !text.isEmpty {
            for line in text.split(whereSeparator: \.isNewline) {
                if let found = leadingReference(in: line) { return found }
            }
            if let found = xcodeLocation(in: text) { return found }
            if let found = javaFrame(in: text, method: "\(classname).\(name)") { return found }
        }
        return nil
    }

    /// `path:line` at the start of `line` (after indentation).
    static func leadingReference(in line: Substring) -> (file: String, line: Int)? {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        var search = trimmed.startIndex
        while let colon = trimmed[search...].firstIndex(of: ":") {
            search = trimmed.index(after: colon)
            let digits = trimmed[search...].prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty else { continue }
            var path = String(trimmed[..<colon])
            if path.hasPrefix("file://") { path.removeFirst("file://".count) }
            let after = trimmed[digits.endIndex...].first
            guard isSourcePath(path), after == nil || after == ":" || after == " ",
                let number = Int(digits), number > 0
            else { return nil }
            return (path, number)
        }
        return nil
    }

    /// `/path/File.swift#CharacterRangeLen=0&EndingLineNumber=35&StartingLineNumber=35`.
    private static func xcodeLocation(in text: String) -> (file: String, line: Int)? {
        guard let key = text.range(of: "StartingLineNumber="),
            let hash = text[..<key.lowerBound].lastIndex(of: "#")
        else { return nil }
        let digits = text[key.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
        let start =
            text[..<hash].lastIndex(where: { $0 == "(" || $0 == " " || $0 == "\n" })
            .map(text.index(after:)) ?? text.startIndex
        var path = String(text[start..<hash])
        if path.hasPrefix("file://") { path.removeFirst("file://".count) }
        guard isSourcePath(path), let number = Int(digits) else { return nil }
        return (path, number + 1)
    }

    /// `at com.acme.FooTest.testBar(FooTest.java:23)` for `method` `com.acme.FooTest.testBar`.
    private static func javaFrame(in text: String, method: String) -> (file: String, line: Int)? {
        guard let frame = text.range(of: "at \(method)(") else { return nil }
        let inside = text[frame.upperBound...].prefix(while: { $0 != ")" && !$0.isNewline })
        guard let colon = inside.lastIndex(of: ":"),
            let number = Int(inside[inside.index(after: colon)...]), number > 0
        else { return nil }
        let file = String(inside[..<colon])
        return isSourcePath(file) ? (file, number) : nil
    }

    /// Whether `path` looks like a source file: its last component has an extension, and it
    /// has no spaces unless it is absolute (macOS project folders often have spaces).
    private static func isSourcePath(_ path: String) -> Bool {
        guard !path.isEmpty, path.hasPrefix("/") || !path.contains(where: \.isWhitespace)
        else { return false }
        let last = path.split(separator: "/").last ?? ""
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return false }
        let ext = last[last.index(after: dot)...]
        return (1...10).contains(ext.count) && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
