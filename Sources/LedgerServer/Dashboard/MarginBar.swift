import LedgerCore

/// How much of its timeout a predicate used, as a small bar: p50 dark, p95 light, max a tick.
enum MarginBar {
    static let width = 120.0

    static func render(_ finding: PredicateFinding) -> HTML {
        func x(_ margin: Double) -> String { PyramidSVG.number(min(1, max(0, margin)) * width) }
        let words =
            "p50 \(Figures.percent(finding.marginP50)), p95 \(Figures.percent(finding.marginP95)), "
            + "max \(Figures.percent(finding.marginMax)) of the timeout"
        return """
            <svg class="margin" viewBox="0 0 \(x(1)) 14" width="\(x(1))" height="14" role="img" \
            aria-label="\(words)" xmlns="http://www.w3.org/2000/svg"><title>\(words)</title>\
            <rect width="\(x(1))" height="14" rx="2" fill="#8883"/>\
            <rect width="\(x(finding.marginP95))" height="14" rx="2" fill="#e09a12" opacity=".55"/>\
            <rect width="\(x(finding.marginP50))" height="14" rx="2" fill="#e09a12"/>\
            <line x1="\(x(finding.marginMax))" x2="\(x(finding.marginMax))" y1="0" y2="14" stroke="#d0342c" \
            stroke-width="2"/></svg> <span class="muted">\(words)</span>
            """
    }
}
