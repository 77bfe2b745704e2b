import Foundation
import LedgerCore
import LedgerStore

/// The project page's trends: a small line chart per series over the periods of `report trends`,
/// each point titled with its figure, and the quarantine's changes, verifications and fixes
/// marked on the time axis. Plain SVG, readable without script.
enum TrendsSection {
    /// Something that happened to a test, marked in the period it fell in.
    struct Event: Equatable {
        /// When, in seconds since 1970.
        var at: Double
        /// What, in words.
        var words: String
    }

    static let width = 260.0
    static let height = 70.0
    /// Below the chart's name: where event ticks and shading begin, and, a little lower, the
    /// highest point's centre, so that neither crosses the name.
    static let belowName = 15.0
    static let plotTop = 21.0

    /// The height of a value `fraction` of the way from the chart's lowest to its highest.
    static func y(_ fraction: Double) -> String { PyramidSVG.number(height - 4 - fraction * (height - 4 - plotTop)) }

    /// An event's tick at `x`, titled with what happened.
    static func tick(x: String, _ words: [String]) -> HTML {
        """
        <line class="event" x1="\(x)" x2="\(x)" y1="\(PyramidSVG.number(belowName))" y2="\(PyramidSVG.number(height))">\
        <title>\(words.joined(separator: "; "))</title></line>
        """
    }

    private struct Series: Sendable {
        var name: String
        var value: @Sendable (TrendsReport.Period) -> Double
        var written: @Sendable (Double) -> String
    }

    private static let series: [Series] = [
        Series(name: "flaky tests", value: { Double($0.flaky) }, written: { String(Int($0)) }),
        Series(name: "runs failing", value: \.failureRate, written: Figures.percent),
        Series(name: "suite time (median)", value: \.wallTime.median, written: Figures.seconds),
        Series(name: "CI time lost to flaky tests", value: \.lostSeconds, written: Figures.seconds),
        Series(name: "UI tests' share", value: \.pyramid.ui, written: Figures.percent),
    ]

    /// The events of a project: its quarantine's changes, its verification runs with their
    /// verdicts, and its fixes' verification, landing and regression.
    static func events(quarantine: [QuarantineChange], fixes: [RecordedFix], runs: [RunListing] = []) -> [Event] {
        let verifications = runs.compactMap { run -> Event? in
            guard run.kind != nil, let purpose = run.purpose,
                let at = try? Date(run.startedAt, strategy: .iso8601).timeIntervalSince1970
            else { return nil }
            return Event(at: at, words: purpose)
        }
        let changes = quarantine.map { change in
            Event(at: change.at, words: "\(change.action.rawValue) \(change.test) (quarantine, by \(change.by))")
        }
        let verified = fixes.flatMap { fix -> [Event] in
            var events = [Event(at: fix.verifiedAt, words: "verified fixed: \(fix.test) at \(fix.revision.prefix(8))")]
            if let landed = fix.landedAt { events.append(Event(at: landed, words: "fix landed: \(fix.test)")) }
            if fix.state == .regressed { events.append(Event(at: fix.changedAt, words: "regressed: \(fix.test)")) }
            return events
        }
        return (changes + verifications + verified).sorted { $0.at < $1.at }
    }

    static func render(_ report: TrendsReport, events: [Event]) -> HTML {
        guard report.periods.count > 1 else { return "" }
        let marks = marks(events, starts: report.periods.map(start), length: length(of: report.by))
        let charts = series.map { chart($0, report: report, marks: marks) }
        let markList: [HTML] = marks.keys.sorted().map { index in
            "<li>\(String(report.periods[index].start.prefix(10))): \(marks[index, default: []].joined(separator: "; "))</li>"
        }
        let listed: HTML =
            markList.isEmpty
            ? "" : "<details><summary>\(markList.count) period(s) with events</summary><ul>\(markList)</ul></details>"
        let scope = "\(report.periods.count) \(report.by.rawValue)s of \(report.branch ?? "every branch")"
        return """
            <h2>Trends <span class="muted">(\(scope))</span></h2>
            <div class="trends">\(charts)</div>
            \(listed)
            """
    }

    /// A period's start in seconds since 1970.
    static func start(_ period: TrendsReport.Period) -> Double {
        (try? Date(period.start, strategy: .iso8601).timeIntervalSince1970) ?? 0
    }

    /// How long a period lasts, in seconds; a run's lasts until the next.
    static func length(of grouping: TrendsReport.Grouping) -> Double {
        switch grouping {
        case .day: 86_400
        case .week: 7 * 86_400
        case .run: .infinity
        }
    }

    /// Each event, by the index of the period it fell in; none for an event before the first
    /// period or after the last one ended.
    static func marks(_ events: [Event], starts: [Double], length: Double) -> [Int: [String]] {
        var marks: [Int: [String]] = [:]
        for event in events {
            guard let index = starts.lastIndex(where: { $0 <= event.at }) else { continue }
            if index == starts.count - 1, event.at >= starts[index] + length { continue }
            marks[index, default: []].append(event.words)
        }
        return marks
    }

    private static func chart(_ series: Series, report: TrendsReport, marks: [Int: [String]]) -> HTML {
        let values = report.periods.map(series.value)
        let (low, high) = (min(0, values.min() ?? 0), max(values.max() ?? 0, 0.000_001))
        let step = (width - 8) / Double(max(1, values.count - 1))
        func x(_ index: Int) -> String { PyramidSVG.number(4 + Double(index) * step) }
        func y(_ value: Double) -> String { Self.y((value - low) / (high - low)) }
        let ticks: [HTML] = marks.keys.sorted().map { tick(x: x($0), marks[$0, default: []]) }
        let line = values.indices.map { "\(x($0)),\(y(values[$0]))" }.joined(separator: " ")
        let points: [HTML] = values.indices.map { index in
            """
            <circle cx="\(x(index))" cy="\(y(values[index]))" r="2.5"><title>\(series.name) \
            \(series.written(values[index])) · \(String(report.periods[index].start.prefix(10)))</title></circle>
            """
        }
        let words =
            "\(series.name): \(series.written(values.first ?? 0)) → \(series.written(values.last ?? 0)), "
            + "highest \(series.written(values.max() ?? 0))"
        return ChartFigure.render(
            "trend", width: width, height: height, words: words,
            """
            <text x="0" y="11">\(series.name)</text>\(ticks)\
            <polyline class="trend" points="\(line)"/>\(points)
            """)
    }
}
