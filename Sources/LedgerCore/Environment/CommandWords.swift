import Foundation

/// A command written as one line (`swift test --package-path "My App"`) split into its words, as
/// a POSIX shell splits them: blanks separate words; single quotes keep everything; double quotes
/// keep all but a backslash before `"`, `\` or `$`; a backslash outside quotes keeps the next
/// character. Nothing is expanded.
public enum CommandWords {
    /// The words; `nil` when a quote is left open or the line ends in a lone backslash.
    public static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                if quote == "\"", !"\"\\$".contains(character) { word.append("\\") }
                word.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""): quote = nil
            case ("'", _): word.append(character)
            case (_, "\\"): escaped = true; inWord = true
            case ("\"", _): word.append(character)
            case (nil, "'"), (nil, "\""): quote = character; inWord = true
            case (nil, _) where character.isWhitespace:
                if inWord { words.append(word) }
                (word, inWord) = ("", false)
            default: word.append(character); inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// `word` as a shell reads it back as one word: as it is when it holds only letters, digits
    /// and `._/:@%+=,-`, else in single quotes (a quote inside as `'\''`).
    public static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "._/:@%+=,-".unicodeScalars.contains(scalar))
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
