/// `report trends` for a terminal: each series as a sparkline with its first and last value and
/// the change between them, then where things changed most.
public enum TrendsRendering {
    /// The most periods a sparkline draws: the newest.
    public static let widest = 60

    private static let bars = Array("▁▂▃▄▅▆▇█")

    /// The report as text.
    public static func text(_ report: TrendsReport) -> String {
        guard let first = report.periods.first, let last = report.periods.last else {
            return "No runs of \(report.project)\(report.branch.map { " on \($0)" } ?? "") in that time."
        }
        let shown = Array(report.periods.suffix(widest))
        let unit = report.by == .run ? "runs" : "\(report.by.rawValue)s"
        var lines = [
            "Trends of \(report.project)\(report.branch.map { " on \($0)" } ?? "") by \(report.by.rawValue), "
                + "since \(String(first.start.prefix(10))): \(report.periods.count) \(unit), "
                + "\(report.periods.reduce(0) { $0 + $1.runs }) runs; flaky as judged over \(report.window) runs"
        ]
        if shown.count < report.periods.count {
            lines.append("The lines draw the newest \(shown.count) \(unit).")
        }
        let rows = rows.map { row in
            [
                row.name, sparkline(shown.map(row.value)), row.written(row.value(first)), row.written(row.value(last)),
                row.change(row.value(last) - row.value(first)),
            ]
        }
        lines.append(
            TextTable(headers: ["", "trend", "first", "last", "change"], rows: rows, numeric: [2, 3, 4]).plain)
        if !report.changes.isEmpty {
            lines.append("Where it changed most:")
            lines += report.changes.map { "- \($0.words)" }
        }
        return lines.joined(separator: "\n")
    }

    /// `values` as bars from the lowest (▁) to the highest (█); all ▁ when they are equal.
    public static func sparkline(_ values: [Double]) -> String {
        guard let low = values.min(), let high = values.max(), high > low else {
            return String(repeating: bars[0], count: values.count)
        }
        return String(values.map { bars[Int(((($0 - low) / (high - low)) * 7).rounded())] })
    }

    private struct Row: Sendable {
        var name: String
        var value: @Sendable (TrendsReport.Period) -> Double
        var written: @Sendable (Double) -> String
        var change: @Sendable (Double) -> String
    }

    private static let rows: [Row] = [
        count("runs") { Double($0.runs) },
        share("runs failing", \.failureRate),
        count("flaky tests") { Double($0.flaky) },
        count("newly flaky") { Double($0.newlyFlaky.count) },
        count("fixed") { Double($0.fixed.count) },
        count("tests") { Double($0.tests) },
        count("tests added") { Double($0.testsAdded) },
        count("tests removed") { Double($0.testsRemoved) },
        time("suite time (median)", \.wallTime.median),
        time("suite time (p95)", \.wallTime.p95),
        time("CI time lost to flaky", \.lostSeconds),
        share("unit share", \.pyramid.unit),
        share("integration share", \.pyramid.integration),
        share("UI share", \.pyramid.ui),
    ]

    private static func count(_ name: String, _ value: @escaping @Sendable (TrendsReport.Period) -> Double) -> Row {
        Row(name: name, value: value, written: { String(Int($0)) }, change: { signed(String(Int(abs($0))), $0) })
    }

    private static func share(_ name: String, _ value: @escaping @Sendable (TrendsReport.Period) -> Double) -> Row {
        Row(
            name: name, value: value, written: Figures.percent,
            change: { signed("\(Int((abs($0) * 100).rounded())) pts", $0) })
    }

    private static func time(_ name: String, _ value: @escaping @Sendable (TrendsReport.Period) -> Double) -> Row {
        Row(name: name, value: value, written: Figures.seconds, change: { signed(Figures.seconds(abs($0)), $0) })
    }

    private static func signed(_ magnitude: String, _ value: Double) -> String {
        value > 0 ? "+\(magnitude)" : value < 0 ? "−\(magnitude)" : "0"
    }
}
