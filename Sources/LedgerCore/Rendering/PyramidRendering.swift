/// `report pyramid` as a terminal drawing with a table, or as Markdown.
public enum PyramidRendering {
    /// The report for a terminal: the drawing, the per-layer table and a verdict line.
    ///
    /// - Parameter report: the report to draw.
    /// - Returns: plain text for a terminal.
    public static func table(_ report: PyramidReport) -> String {
        [drawing(report), "", layerTable(report).plain, "", verdictLine(report)].joined(separator: "\n")
    }

    /// The report as Markdown: the verdict as a heading, the reason quoted, the per-layer table and
    /// the drawing in a code block.
    ///
    /// - Parameter report: the report to draw.
    /// - Returns: GitHub-flavoured Markdown.
    public static func markdown(_ report: PyramidReport) -> String {
        [
            "### Test pyramid: \(report.verdict.title)", "",
            "> \(TextTable.escapeMarkdown(report.reason))", "",
            layerTable(report).markdown, "",
            "```", drawing(report), "```",
        ].joined(separator: "\n")
    }

    static func verdictLine(_ report: PyramidReport) -> String {
        "Verdict: \(report.verdict.title) — \(report.reason)"
            + (report.runs > 1 ? " (\(report.runs) runs)" : report.run.map { " (run \($0))" } ?? "")
    }

    static func layerTable(_ report: PyramidReport) -> TextTable {
        TextTable(
            headers: ["layer", "tests", "share", "time", "time share", "median", "failing", "flaky"],
            rows: report.layers.map { figures in
                [
                    figures.layer.rawValue, "\(figures.tests)", Figures.percent(figures.share),
                    Figures.seconds(figures.seconds), Figures.percent(figures.timeShare),
                    Figures.seconds(figures.medianSeconds), Figures.percent(figures.failureRate),
                    Figures.percent(figures.flakyRate),
                ]
            }, numeric: [1, 2, 3, 4, 5, 6, 7])
    }

    /// The layers stacked top (ui) to bottom (unit), each bar as wide as its share of tests;
    /// a healthy suite draws a pyramid.
    ///
    /// - Parameters:
    ///   - report: the report to draw.
    ///   - width: the widest bar, in characters; a layer with tests gets at least one.
    /// - Returns: one line per layer: its name, its bar centred in `width`, its count and share.
    public static func drawing(_ report: PyramidReport, width: Int = 40) -> String {
        report.layers.reversed().map { figures in
            let bar = max(figures.tests > 0 ? 1 : 0, Int((figures.share * Double(width)).rounded()))
            let margin = String(repeating: " ", count: (width - bar) / 2)
            let block = String(repeating: "█", count: bar)
            let fill = String(repeating: " ", count: width - bar - (width - bar) / 2)
            let label = figures.layer.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            return "\(label)\(margin)\(block)\(fill)  \(figures.tests) (\(Figures.percent(figures.share)))"
        }.joined(separator: "\n")
    }
}
