import Foundation

/// Small text helpers for messages taken from JUnit elements.
enum JUnitText {
    /// The first line of `text` with something on it, trimmed; `nil` when there is none.
    static func firstLine(of text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return trimmed }
        }
        return nil
    }

    /// `text` unless it is missing or blank.
    static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}
