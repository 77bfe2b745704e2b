/// Rows of cells drawn as an aligned terminal table or as a Markdown table.
public struct TextTable: Sendable {
    public var headers: [String]
    public var rows: [[String]]
    /// Columns whose cells are right-aligned (numbers).
    public var numeric: Set<Int>

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
    public static func percent(_ share: Double) -> String {
        share.isFinite ? "\(Int((share * 100).rounded()))%" : "–"
    }

    public static func seconds(_ value: Double) -> String {
        if value >= 100 { return "\(Int(value.rounded()))s" }
        if value >= 1 { return String(format2(value)) + "s" }
        return "\(Int((value * 1000).rounded()))ms"
    }

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
