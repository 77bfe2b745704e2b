import LedgerCore
import LedgerStore

/// A test's duration over recent runs, oldest first: one bar per run, coloured by its outcome,
/// each with its figures as a tooltip. Plain SVG, no script.
enum DurationChart {
    static let height = 80.0
    static let bar = 12.0
    static let gap = 3.0

    static func render(_ cells: [AttemptsInRun]) -> HTML {
        let timed = cells.filter { !$0.attempts.isEmpty }
        guard !timed.isEmpty else { return "" }
        let longest = max(timed.map(\.seconds).max() ?? 0, 0.001)
        let width = Double(timed.count) * (bar + gap)
        let bars = timed.enumerated().map { index, cell -> HTML in
            let (_, tone, words) = OutcomeStrip.look(cell)
            let tall = max(1, cell.seconds / longest * (height - 14))
            let title =
                "\(Figures.seconds(cell.seconds)) · \(words) · run \(Layout.shortRun(cell.run)) · "
                + iso8601(cell.startedAt)
            return """
                <rect class="bar \(tone)" x="\(PyramidSVG.number(Double(index) * (bar + gap)))" \
                y="\(PyramidSVG.number(height - tall))" width="\(PyramidSVG.number(bar))" \
                height="\(PyramidSVG.number(tall))"><title>\(title)</title></rect>
                """
        }
        let words =
            "duration over \(timed.count) run(s), oldest first: longest \(Figures.seconds(longest)), "
            + "median \(Figures.seconds(Statistics.median(timed.map(\.seconds))))"
        return ChartFigure.render(
            "durations", width: width, height: height, words: words,
            "<text x=\"0\" y=\"11\">\(Figures.seconds(longest))</text>\(bars)")
    }
}
