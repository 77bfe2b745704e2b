import Foundation

/// The gate's limits, read from the table in `docs/benchmarks.md` that follows the line
/// `<!-- gate limits -->`: a figure's id in backticks in the first column, its limit (`2.5×` or
/// `64 MiB`) in the third.
struct GateLimits {
    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A measured figure: a ratio to a baseline of the same run, or a peak in MiB.
    struct Figure {
        var id: String
        var text: String
        var value: Double
        var unit: String

        init(id: String, text: String, ratio: Double) {
            (self.id, self.text, self.value, self.unit) = (id, text, ratio, "×")
        }

        init(id: String, text: String, mebibytes: Double) {
            (self.id, self.text, self.value, self.unit) = (id, text, mebibytes, " MiB")
        }
    }

    static let marker = "<!-- gate limits -->"

    /// Limits by figure id.
    let limits: [String: Double]

    init(markdown: String, source: String) throws {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == Self.marker }) else {
            throw Problem("\(source): no line \(Self.marker) before the gate's table: put it back above the table")
        }
        var limits: [String: Double] = [:]
        for (offset, line) in lines[(start + 1)...].enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty, !limits.isEmpty { break }
            let cells = trimmed.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, cells[1].hasPrefix("`") else { continue }
            let id = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let number = cells[3].prefix { $0.isNumber || $0 == "." }
            guard let limit = Double(number) else {
                throw Problem(
                    "\(source):\(start + offset + 2): the limit of `\(id)` is not a number (\(cells[3])): write it as 2.5× or 64 MiB"
                )
            }
            limits[id] = limit
        }
        self.limits = limits
    }

    /// Prints each figure beside its limit; whether every figure has a limit and is within it.
    func judge(_ figures: [Figure], print: (String) -> Void) -> Bool {
        var failed: [String] = []
        for figure in figures {
            let limit = limits[figure.id]
            let within = limit.map { figure.value <= $0 } ?? false
            let limitText = limit.map { String(format: "%.2f", $0) + figure.unit } ?? "none"
            print(
                "  " + figure.id.padding(toLength: 28, withPad: " ", startingAt: 0)
                    + String(format: "%8.3f", figure.value) + figure.unit + "  limit " + limitText
                    + (within ? "  ok" : "  FAILED") + "  " + figure.text)
            if !within { failed.append(figure.id) }
        }
        let unused = Set(limits.keys).subtracting(figures.map(\.id)).sorted()
        if !unused.isEmpty { print("  limits no figure measured: \(unused.joined(separator: ", "))") }
        if failed.isEmpty && unused.isEmpty {
            print("gate: every figure within its limit")
            return true
        }
        if !failed.isEmpty { print("gate: FAILED: \(failed.joined(separator: ", ")) past the limit (or without one)") }
        return false
    }
}
