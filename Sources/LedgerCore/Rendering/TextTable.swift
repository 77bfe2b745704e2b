/// Rows of cells drawn as an aligned terminal table or as a Markdown table.
public struct TextTable: Sendable {
    /// The column titles, one per column.
    public var headers: [String]
    /// The rows, each a cell per column; a row may be shorter than ``headers``, never longer.
    public var rows: [[String]]
    /// Columns whose cells are right-aligned (numbers).
    public var numeric: Set<Int>

    /// Creates a table.
    ///
    /// - Parameters:
    ///   - headers: the column titles.
    ///   - rows: the rows, each a cell per column.
    ///   - numeric: indices of the columns to right-align.
    public init(headers: [String], rows: [[String]], numeric: Set<Int> = []) {
        self.headers = headers
        self.rows = rows
        self.numeric = numeric
    }

    /// Columns padded to their widest cell, separated by two spaces.
    public var plain: String {
        let widths = headers.indices.map { column in
            ([headers] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return numeric.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        return ([line(headers), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// A GitHub-flavoured Markdown table; pipes in cells are escaped.
    public var markdown: String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map(Self.escapeMarkdown).joined(separator: " | ") + " |"
        }
        let rule = "|" + headers.indices.map { numeric.contains($0) ? " ---: |" : " --- |" }.joined()
        return ([line(headers), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// Text made safe for a Markdown table cell.
    ///
    /// - Parameter text: the cell's text.
    /// - Returns: the text with `|`, backslash, backtick, `*`, `_`, `<`, `>`, `[` and `]` escaped by a
    ///   backslash, and line breaks turned into spaces.
    public static func escapeMarkdown(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "|", "\\", "`", "*", "_", "<", ">", "[", "]": escaped += "\\\(character)"
            case "\n", "\r": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// Number formats shared by the renderers.
public enum Figures {
    /// A share as a whole percentage.
    ///
    /// - Parameter share: a share, 1 being all.
    /// - Returns: such as `42%`, rounded; `–` when the share is not finite.
    public static func percent(_ share: Double) -> String {
        share.isFinite ? "\(Int((share * 100).rounded()))%" : "–"
    }

    /// A figure of its own, such as a load average, to one decimal: `6.2`.
    public static func level(_ value: Double) -> String { String(format: "%.1f", value) }

    /// How many times one thing is another, to one decimal: `4.2×`.
    public static func times(_ value: Double) -> String { String(format: "%.1f×", value) }

    /// A small probability with enough digits to compare it with 1 %: `0.75%`, `<0.01%`.
    public static func chance(_ value: Double) -> String {
        value < 0.0001 ? "<0.01%" : String(format: "%.2f%%", value * 100)
    }

    /// Quiet runs in a row against the runs needed to recover: `9/17`; the runs alone when none
    /// are needed.
    public static func quiet(_ runs: Int, of needed: Int?) -> String {
        needed.map { "\(runs)/\($0)" } ?? "\(runs)"
    }

    /// A duration in a readable unit.
    ///
    /// - Parameter value: a duration in seconds.
    /// - Returns: whole seconds from 100 s (`120s`), two decimals from 1 s (`1.50s`), else whole
    ///   milliseconds (`42ms`).
    public static func seconds(_ value: Double) -> String {
        if value >= 100 { return "\(Int(value.rounded()))s" }
        if value >= 1 { return String(format2(value)) + "s" }
        return "\(Int((value * 1000).rounded()))ms"
    }

    /// A size: `812 B`, `14.2 KiB`, `3.1 MiB`.
    public static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        func tenths(_ value: Double) -> String {
            let scaled = Int((value * 10).rounded())
            return "\(scaled / 10).\(scaled % 10)"
        }
        if count < 1 << 20 { return tenths(Double(count) / 1024) + " KiB" }
        return tenths(Double(count) / 1_048_576) + " MiB"
    }

    /// A number with two decimals, such as `0.41`.
    ///
    /// - Parameter value: the number.
    /// - Returns: the number rounded to two decimals.
    public static func decimal(_ value: Double) -> String { format2(value) }

    /// `file:line`, or the file alone without a line; `nil` without a file.
    public static func place(_ file: String?, _ line: Int?) -> String? {
        file.map { $0 + (line.map { ":\($0)" } ?? "") }
    }

    static func format2(_ value: Double) -> String {
        let scaled = Int((value * 100).rounded())
        let fraction = abs(scaled % 100)
        return "\(scaled < 0 && scaled > -100 ? "-" : "")\(scaled / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

extension TextTable {
    /// The table with an `owners` column last, when any row has owners; as it is otherwise.
    /// - Parameter owners: each row's owners, in the rows' order.
    /// - Returns: the table with the column added, or the table as it is when no row has owners.
    public func withOwners(_ owners: [[String]?]) -> TextTable {
        guard owners.contains(where: { !($0 ?? []).isEmpty }) else { return self }
        var table = self
        for index in table.rows.indices {
            table.rows[index] += Array(repeating: "", count: max(0, headers.count - table.rows[index].count))
            table.rows[index].append(owners[index]?.joined(separator: " ") ?? "")
        }
        table.headers.append("owners")
        return table
    }
}
