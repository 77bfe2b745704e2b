/// The frame of every dashboard page: head, inline style sheet, breadcrumbs. No scripts and no
/// external assets, so pages work under `default-src 'none'`.
enum Layout {
    /// A link in the breadcrumbs; the last one names the page and has no address.
    struct Crumb {
        var title: String
        var href: String?
    }

    static func page(_ title: String, crumbs: [Crumb] = [], _ content: HTML) -> HTML {
        let trail = ([Crumb(title: "TestLedger", href: "/")] + crumbs).map { crumb -> HTML in
            guard let href = crumb.href else { return "<span>\(crumb.title)</span>" }
            return "<a href=\"\(href)\">\(crumb.title)</a>"
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <link rel="icon" href="data:,">
            <title>\(title) · TestLedger</title>
            <style>\(style)</style>
            </head>
            <body>
            <nav>\(HTML(interleaving: trail, with: " / "))</nav>
            <main>
            \(content)
            </main>
            </body>
            </html>

            """
    }

    /// A run id by its first eight characters, the whole id on hover.
    static func runCode(_ id: String) -> HTML {
        "<code title=\"\(id)\">\(shortRun(id))</code>"
    }

    static func shortRun(_ id: String) -> String { String(id.prefix(8)) }

    /// A test's owners after its name; nothing when it has none.
    static func owners(_ owners: [String]?) -> HTML {
        guard let owners, !owners.isEmpty else { return "" }
        return " <span class=\"owners\">\(owners.joined(separator: " "))</span>"
    }

    static let style: HTML = """
        :root { color-scheme: light dark; --pass: #2e9d4f; --fail: #d0342c; --retry: #e09a12;
          --none: #8884; --line: #8885; font-family: system-ui, sans-serif; font-size: 15px; }
        body { margin: 0 auto; max-width: 1200px; padding: 0 1.5rem 3rem; line-height: 1.45; }
        nav { padding: 1rem 0; border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
        a { color: #3b6fd4; text-decoration: none; } a:hover { text-decoration: underline; }
        h1 { font-size: 1.5rem; margin: .5rem 0; word-break: break-all; }
        h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
        table { border-collapse: collapse; width: 100%; font-size: .9rem; }
        th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
        td.id { word-break: break-all; }
        code, pre { font-family: ui-monospace, monospace; font-size: .85rem; }
        pre { white-space: pre-wrap; word-break: break-word; margin: .2rem 0; padding: .5rem;
          background: #8881; border-radius: 4px; }
        .muted { opacity: .7; }
        .owners { font-size: .8rem; opacity: .8; white-space: nowrap; }
        .owners::before { content: "· "; }
        .badge { display: inline-block; padding: .1rem .5rem; border-radius: 1rem; font-size: .85rem;
          color: #fff; background: var(--none); }
        .badge.good { background: var(--pass); } .badge.warn { background: var(--retry); }
        .badge.bad { background: var(--fail); }
        .strip { display: inline-flex; gap: 2px; }
        .cell { display: inline-block; width: 1.1em; height: 1.3em; border-radius: 2px; text-align: center;
          font: .7rem/1.3em ui-monospace, monospace; color: #fff; background: var(--none); }
        .cell.p { background: var(--pass); } .cell.f { background: var(--fail); }
        .cell.r { background: var(--retry); }
        svg text { font: 12px system-ui, sans-serif; fill: currentColor; }
        svg .bar { fill: var(--none); } svg .bar.p { fill: var(--pass); } svg .bar.f { fill: var(--fail); }
        svg .step { fill: #fff; fill-opacity: 0.55; stroke: #333; stroke-width: 0.5; } svg .step.f { fill: var(--fail); fill-opacity: 1; }
        svg .bar.r { fill: var(--retry); }
        figure.durations { margin: .5rem 0; }
        div.trends { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; } figure.trend { margin: .25rem 0; }
        svg .trend { fill: none; stroke: currentColor; stroke-width: 1.5; } svg circle { fill: currentColor; }
        svg line.event { stroke: var(--retry); stroke-width: 1; stroke-dasharray: 3 2; }
        svg rect.flaky { fill: var(--retry); fill-opacity: 0.18; }
        svg .unit { fill: #2e9d4f; } svg .integration { fill: #3b6fd4; } svg .ui { fill: #a05bd6; }
        ul.tree { list-style: none; padding-left: 1.2rem; margin: .2rem 0; }
        .ok { color: var(--pass); } .ko { color: var(--fail); }
        form input[type=password] { width: min(30rem, 100%); padding: .4rem; font: inherit; }
        form button { padding: .4rem 1rem; font: inherit; }
        """
}

extension HTML {
    /// Pieces with a separator between each two.
    init(interleaving pieces: [HTML], with separator: HTML) {
        self.init(pieces.enumerated().map { index, piece in index == 0 ? piece : "\(separator)\(piece)" })
    }
}
