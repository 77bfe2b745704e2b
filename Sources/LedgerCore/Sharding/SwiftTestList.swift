import Foundation

/// What `swift test list` prints, read as the ledger names tests.
public enum SwiftTestList {
    /// A line as the ledger names its test: `Module.Class/test`, `Module.Suite/test()`, a free
    /// function `Module.test()` as `Module/test()`, an overload's `/File.swift:3:2` left out;
    /// `nil` for a line that names no test (build progress).
    public static func stableID(listed line: Substring) -> String? {
        guard !line.isEmpty, !line.contains(where: \.isWhitespace), line.contains(".") else {
            return nil
        }
        var id = String(line)
        if let location = id.range(of: #"/[^/]+\.swift:\d+:\d+$"#, options: .regularExpression) {
            id.removeSubrange(location)
        }
        if !id.contains("/"), let dot = id.firstIndex(of: ".") {
            id.replaceSubrange(dot...dot, with: "/")
        }
        return id
    }
}
