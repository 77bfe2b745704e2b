import Foundation

/// Splits a migration file into its statements, which PostgreSQL's extended protocol takes one
/// at a time: at each `;` outside quotes (`'…'`, `"…"`), dollar quotes (`$$…$$`, `$tag$…$tag$`)
/// and comments (`-- …`, `/* … */`).
enum SQLStatements {
    static func split(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var index = sql.startIndex
        func rest() -> Substring { sql[index...] }
        while index < sql.endIndex {
            let character = sql[index]
            if rest().hasPrefix("--") {
                let end = rest().firstIndex(of: "\n") ?? sql.endIndex
                index = end
                continue
            }
            if rest().hasPrefix("/*") {
                let end = rest().dropFirst(2).range(of: "*/")?.upperBound ?? sql.endIndex
                index = end
                continue
            }
            if character == "'" || character == "\"" {
                let end = rest().dropFirst().firstIndex(of: character).map { sql.index(after: $0) } ?? sql.endIndex
                current += sql[index..<end]
                index = end
                continue
            }
            if character == "$", let tag = dollarTag(at: index, in: sql) {
                let body = sql[sql.index(index, offsetBy: tag.count)...]
                let end = body.range(of: tag)?.upperBound ?? sql.endIndex
                current += sql[index..<end]
                index = end
                continue
            }
            index = sql.index(after: index)
            if character == ";" {
                append(current, to: &statements)
                current = ""
            } else {
                current.append(character)
            }
        }
        append(current, to: &statements)
        return statements
    }

    /// The dollar-quote tag (`$$` or `$name$`) starting at `index`, when one does.
    private static func dollarTag(at index: String.Index, in sql: String) -> String? {
        var tag = "$"
        var cursor = sql.index(after: index)
        while cursor < sql.endIndex {
            let character = sql[cursor]
            if character == "$" { return tag + "$" }
            guard character.isLetter || character == "_" || (character.isNumber && tag.count > 1) else { return nil }
            tag.append(character)
            cursor = sql.index(after: cursor)
        }
        return nil
    }

    private static func append(_ statement: String, to statements: inout [String]) {
        let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { statements.append(trimmed) }
    }
}
