import LedgerCore

/// A failing attempt's timeline: its own bar on top, then a bar for each test that ran beside it,
/// over the same span of time, coloured by outcome, with each one's steps drawn inside its bar
/// (a failed step in the failure's colour), so the failing step can be read against what the
/// others were doing then. Plain SVG, no script.
enum TimelineChart {
    static let width = 600.0
    static let row = 16.0
    static let label = 250.0

    static func render(_ timeline: AttemptTimeline) -> HTML {
        let (from, to) = timeline.span
        let scale = (width - label) / max(to - from, 0.000_001)
        let rows = ([timeline.attempt] + timeline.beside).enumerated().map { index, attempt -> HTML in
            let end = attempt.duration.map { attempt.startedAt + $0 } ?? to
            let x = label + (attempt.startedAt - from) * scale
            let y = Double(index) * row
            let tone = attempt.outcome.map { $0.isFailure ? "f" : $0 == .skipped ? "" : "p" } ?? "f"
            let title =
                "\(attempt.test) · attempt \(attempt.attempt) · \(attempt.outcome?.rawValue ?? "never ended") · "
                + "\(Figures.seconds(attempt.startedAt - from)) to \(Figures.seconds(end - from))"
            let steps = attempt.steps.map { step -> HTML in
                let stepEnd = step.endedAt ?? end
                let depth = Double(max(0, step.path.count - 1))
                let stepTitle =
                    "\(step.path.joined(separator: " › ")) · \(step.outcome?.rawValue ?? "never ended") · "
                    + "\(Figures.seconds(step.startedAt - from)) to \(Figures.seconds(stepEnd - from))"
                return """
                    <rect class="step\(step.outcome == .failed ? " f" : "")" \
                    x="\(PyramidSVG.number(label + (step.startedAt - from) * scale))" \
                    y="\(PyramidSVG.number(y + 5 + min(depth, 2)))" \
                    width="\(PyramidSVG.number(max(1, (stepEnd - step.startedAt) * scale)))" \
                    height="\(PyramidSVG.number(max(2, row - 10 - 2 * min(depth, 2))))"><title>\(stepTitle)</title></rect>
                    """
            }
            return """
                <text x="0" y="\(PyramidSVG.number(y + 12))">\(shortName(attempt.test))</text>\
                <rect class="bar \(tone)" x="\(PyramidSVG.number(x))" y="\(PyramidSVG.number(y + 2))" \
                width="\(PyramidSVG.number(max(1, (end - attempt.startedAt) * scale)))" \
                height="\(PyramidSVG.number(row - 4))"><title>\(title)</title></rect>\(steps)
                """
        }
        let height = Double(rows.count) * row
        let words =
            "\(timeline.attempt.test) (attempt \(timeline.attempt.attempt)) and the \(timeline.beside.count) "
            + "test(s) that ran beside it, over \(Figures.seconds(to - from))"
        return ChartFigure.render("timeline", width: width, height: height, words: words, "\(rows)")
    }

    /// The test's name without its module and suite when long: the label's room is small.
    static func shortName(_ test: String) -> String {
        guard test.count > 34 else { return test }
        let last = test.split(separator: "/").last.map(String.init) ?? test
        return last.count > 34 ? String(last.prefix(33)) + "…" : last
    }
}
