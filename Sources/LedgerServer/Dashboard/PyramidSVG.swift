import LedgerCore

/// The count pyramid and the cost pyramid side by side, as inline SVG: each layer a bar as
/// wide as its share, ui on top and unit at the bottom.
enum PyramidSVG {
    /// One layer's bar in one of the two pyramids.
    struct Bar: Equatable {
        var layer: Layer
        var share: Double
        var x: Double
        var y: Double
        var width: Double
        var label: String
    }

    static let panelWidth = 420.0
    static let barArea = 200.0
    static let barHeight = 34.0

    /// The bars of one pyramid: by test count, or by run time when `byTime`.
    static func bars(_ report: PyramidReport, byTime: Bool, left: Double = 0) -> [Bar] {
        report.layers.sorted { $0.layer > $1.layer }.enumerated().map { row, figures in
            let share = byTime ? figures.timeShare : figures.share
            let width = share > 0 ? max(2, share * barArea) : 0
            let amount = byTime ? Figures.seconds(figures.seconds) : "\(figures.tests)"
            return Bar(
                layer: figures.layer, share: share, x: left + (barArea - width) / 2,
                y: 28 + Double(row) * (barHeight + 6), width: width,
                label: "\(figures.layer.rawValue) \(amount) · \(Figures.percent(share))")
        }
    }

    static func render(_ report: PyramidReport) -> HTML {
        let panels = [(title: "Tests by count", byTime: false), (title: "Run time", byTime: true)]
        let drawn = panels.enumerated().map { index, panel -> HTML in
            let left = Double(index) * panelWidth
            let bars = bars(report, byTime: panel.byTime, left: left).map { bar -> HTML in
                """
                <rect class="\(bar.layer.rawValue)" data-layer="\(bar.layer.rawValue)" \
                data-share="\(String(bar.share))" x="\(number(bar.x))" y="\(number(bar.y))" \
                width="\(number(bar.width))" height="\(number(barHeight))" rx="3"><title>\(bar.label)</title></rect>\
                <text x="\(number(left + barArea + 8))" y="\(number(bar.y + barHeight / 2 + 4))">\(bar.label)</text>
                """
            }
            return """
                <g data-pyramid="\(panel.byTime ? "time" : "count")">\
                <text x="\(number(left + barArea / 2))" y="16" text-anchor="middle">\(panel.title)</text>
                \(bars)</g>
                """
        }
        let summary = "Test pyramid: \(report.verdict.title). \(report.reason)"
        return """
            <svg class="pyramid" viewBox="0 0 \(number(2 * panelWidth)) 150" width="\(number(2 * panelWidth))" \
            height="150" role="img" aria-label="\(summary)" xmlns="http://www.w3.org/2000/svg">\
            <title>\(summary)</title>
            \(drawn)</svg>
            """
    }

    /// The verdict as a coloured badge.
    static func verdict(_ verdict: PyramidVerdict) -> HTML {
        let tone =
            switch verdict {
            case .pyramid: "good"
            case .iceCreamCone: "bad"
            case .hourglass, .diamond, .uneven: "warn"
            case .empty: ""
            }
        return "<span class=\"badge \(tone)\" data-verdict=\"\(verdict.rawValue)\">\(verdict.title)</span>"
    }

    /// A coordinate with at most one decimal.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(Double(tenths) / 10)
    }
}
