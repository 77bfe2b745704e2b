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
        guard let text else { return nil }
        // An ASCII first byte that is not whitespace settles it without walking characters
        // (`Character.isWhitespace` goes by the first scalar).
        if let first = text.utf8.first, first < 0x80, first != 0x20, !(0x09...0x0D).contains(first) {
            return text
        }
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }
}
