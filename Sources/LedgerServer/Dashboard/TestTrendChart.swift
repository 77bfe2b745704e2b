import Foundation
import LedgerCore
import LedgerStore

/// A test's page: its failure rate and duration week by week, the weeks it flaked shaded and its
/// fix's verification and landing marked. Plain SVG, each point titled.
enum TestTrendChart {
    /// One week of the test's runs.
    struct Week: Equatable {
        /// When the week starts, in seconds since 1970.
        var start: Double
        var runs: Int
        /// Runs whose final attempt failed.
        var failed: Int
        /// It passed on a retry, or both passed and failed that week.
        var flaky: Bool
        /// The median of its runs' seconds.
        var medianSeconds: Double
    }

    /// The runs of `history` (any order) that ran the test, week by week, oldest first.
    static func weeks(_ history: [AttemptsInRun]) -> [Week] {
        let ran = history.filter { $0.final != nil }
        let byWeek = Dictionary(grouping: ran) { TrendsReport.Grouping.week.start(of: $0.startedAt) }
        return byWeek.keys.sorted().map { start in
            let cells = byWeek[start, default: []]
            let failed = cells.count { $0.final?.isFailure == true }
            let passed = cells.count { $0.final?.isPass == true }
            return Week(
                start: start, runs: cells.count, failed: failed,
                flaky: cells.contains(where: \.passedOnRetry) || (failed > 0 && passed > 0),
                medianSeconds: Statistics.median(cells.map(\.seconds)))
        }
    }

    static func render(_ history: [AttemptsInRun], fix: RecordedFix?) -> HTML {
        let weeks = weeks(history)
        guard weeks.count > 1 else { return "" }
        var events: [TrendsSection.Event] = []
        if let fix {
            events.append(.init(at: fix.verifiedAt, words: "fix verified at \(fix.revision.prefix(8))"))
            if let landed = fix.landedAt { events.append(.init(at: landed, words: "fix landed")) }
        }
        let marks = TrendsSection.marks(events, starts: weeks.map(\.start), length: 7 * 86_400)
        let flakyWeeks = weeks.filter(\.flaky).count
        return """
            <h2>Week by week <span class="muted">(\(weeks.count) weeks, \(flakyWeeks) flaky)</span></h2>
            <div class="trends">\
            \(chart("failure rate", weeks.map { Double($0.failed) / Double($0.runs) }, Figures.percent, weeks, marks))\
            \(chart("duration (median)", weeks.map(\.medianSeconds), Figures.seconds, weeks, marks))</div>
            """
    }

    private static func chart(
        _ name: String, _ values: [Double], _ written: (Double) -> String, _ weeks: [Week], _ marks: [Int: [String]]
    ) -> HTML {
        let (width, height, belowName) = (TrendsSection.width, TrendsSection.height, TrendsSection.belowName)
        let high = max(values.max() ?? 0, 0.000_001)
        let step = (width - 8) / Double(max(1, values.count - 1))
        func x(_ index: Int) -> Double { 4 + Double(index) * step }
        func y(_ value: Double) -> String { TrendsSection.y(value / high) }
        let shaded: [HTML] = weeks.indices.filter { weeks[$0].flaky }.map { index in
            """
            <rect class="flaky" x="\(PyramidSVG.number(x(index) - step / 2))" y="\(PyramidSVG.number(belowName))" \
            width="\(PyramidSVG.number(step))" height="\(PyramidSVG.number(height - belowName))"><title>flaky in the week of \
            \(String(iso8601(weeks[index].start).prefix(10)))</title></rect>
            """
        }
        let ticks: [HTML] = marks.keys.sorted().map {
            TrendsSection.tick(x: PyramidSVG.number(x($0)), marks[$0, default: []])
        }
        let line = values.indices.map { "\(PyramidSVG.number(x($0))),\(y(values[$0]))" }.joined(separator: " ")
        let points: [HTML] = values.indices.map { index in
            """
            <circle cx="\(PyramidSVG.number(x(index)))" cy="\(y(values[index]))" r="2.5"><title>\(name) \
            \(written(values[index])) in the week of \(String(iso8601(weeks[index].start).prefix(10))) \
            (\(weeks[index].runs) runs)</title></circle>
            """
        }
        let words = "\(name) week by week: \(written(values.first ?? 0)) → \(written(values.last ?? 0))"
        return ChartFigure.render(
            "trend", width: width, height: height, words: words,
            "<text x=\"0\" y=\"11\">\(name)</text>\(shaded)\(ticks)<polyline class=\"trend\" points=\"\(line)\"/>\(points)"
        )
    }
}
