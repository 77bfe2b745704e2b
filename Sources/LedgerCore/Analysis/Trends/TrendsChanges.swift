/// Finds where each of a trend's series changed most from one period to the next, and says it.
enum TrendsChanges {
    /// A series: its name, how its value is read from a period, the smallest change worth telling,
    /// and how a value is written.
    private struct Series: Sendable {
        var name: String
        var words: String
        var value: @Sendable (TrendsReport.Period) -> Double
        var least: Double
        var written: @Sendable (Double) -> String
    }

    private static let series: [Series] = [
        Series(name: "flaky", words: "flaky tests", value: { Double($0.flaky) }, least: 2, written: count),
        Series(
            name: "failureRate", words: "runs failing", value: \.failureRate, least: 0.1, written: Figures.percent),
        Series(
            name: "wallTime.median", words: "the suite's time (median)", value: \.wallTime.median, least: 0,
            written: Figures.seconds),
        Series(
            name: "lostSeconds", words: "CI time lost to flaky tests", value: \.lostSeconds, least: 60,
            written: Figures.seconds),
        Series(
            name: "pyramid.unit", words: "unit tests' share", value: \.pyramid.unit, least: 0.05,
            written: Figures.percent),
        Series(
            name: "pyramid.ui", words: "UI tests' share", value: \.pyramid.ui, least: 0.05, written: Figures.percent),
    ]

    private static func count(_ value: Double) -> String { String(Int(value)) }

    /// Each series' largest change between two periods next to each other, when it is worth
    /// telling (a time by a tenth or more), the largest against its least first.
    /// - Parameters:
    ///   - periods: the periods, oldest first.
    ///   - grouping: how they were made, for the words.
    ///   - newlyFlaky: each period's newly flaky tests.
    /// - Returns: a change per series at most, the largest against its least first.
    static func find(_ periods: [TrendsReport.Period], grouping: TrendsReport.Grouping, newlyFlaky: [[String]])
        -> [TrendsReport.Change]
    {
        guard periods.count > 1 else { return [] }
        var found: [(size: Double, change: TrendsReport.Change)] = []
        for series in series {
            let values = periods.map(series.value)
            guard
                let index = values.indices.dropFirst().max(by: {
                    abs(values[$0] - values[$0 - 1]) < abs(values[$1] - values[$1 - 1])
                })
            else { continue }
            let (from, to) = (values[index - 1], values[index])
            let least = series.least > 0 ? series.least : max(1, from * 0.1)
            guard abs(to - from) >= least else { continue }
            var words =
                "\(series.words) \(series.written(from)) → \(series.written(to)) \(when(periods[index], grouping))"
            if series.name == "flaky", index < newlyFlaky.count, !newlyFlaky[index].isEmpty {
                words += ": \(newlyFlaky[index].count) newly flaky" + crowd(newlyFlaky[index])
            }
            found.append(
                (
                    abs(to - from) / least,
                    .init(series: series.name, start: periods[index].start, from: from, to: to, words: words)
                ))
        }
        return found.sorted { $0.size > $1.size }.map(\.change)
    }

    /// When a period was, in words: `in the week of 2026-11-16`.
    static func when(_ period: TrendsReport.Period, _ grouping: TrendsReport.Grouping) -> String {
        let day = String(period.start.prefix(10))
        switch grouping {
        case .day: return "on \(day)"
        case .week: return "in the week of \(day)"
        case .run: return "in run \(period.run.map { String($0.prefix(8)) } ?? day) (\(day))"
        }
    }

    /// `, 5 in CheckoutTests` when two or more of `tests` share a suite, naming the largest.
    static func crowd(_ tests: [String]) -> String {
        var bySuite: [String: Int] = [:]
        for test in tests {
            let suite = test.split(separator: "/").first.map(String.init) ?? test
            bySuite[suite.split(separator: ".").last.map(String.init) ?? suite, default: 0] += 1
        }
        guard let (suite, count) = bySuite.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), count > 1 else {
            return ""
        }
        return ", \(count) in \(suite)"
    }
}
