import LedgerCore

/// A test page's "What separates failing attempts": the culprit report's suspects with their
/// failing and passing counts, and where the attempts fail.
enum CulpritSection {
    static func render(_ report: CulpritReport) -> HTML {
        // A test that never failed in the window has nothing to explain.
        guard report.failingAttempts > 0 else { return "" }
        let place: HTML =
            report.where.map { place in
                let at = Figures.place(place.file, place.line) ?? "no file named"
                let step: HTML = place.activity.map { " in <code>\($0)</code>" } ?? ""
                return """
                    <p>Fails at <code>\(at)</code>\(step) (\(place.attempts) of \(report.failingAttempts)): \
                    \(place.message ?? "")</p>
                    """
            } ?? ""
        let verdict: HTML
        switch report.verdict {
        case .suspects:
            verdict = ""
        case .tooFewFailures:
            verdict =
                "<p class=\"muted\">Too few failures to tell: \(report.failingAttempts) failing attempt(s); a verdict needs \(report.minimumFailures).</p>"
        case .noSeparation:
            verdict =
                "<p class=\"muted\">Nothing separates them. Compared: \(report.compared.joined(separator: ", ")).</p>"
        }
        let rows = report.suspects.map { suspect -> HTML in
            """
            <tr><td>\(suspect.kind.rawValue)</td><td><code>\(suspect.name)</code></td>\
            <td class="n">\(suspect.failing.count) of \(suspect.failing.of)</td>\
            <td class="n">\(suspect.passing.count) of \(suspect.passing.of)</td>\
            <td class="n">\(Figures.decimal(suspect.score))</td><td>\(suspect.evidence)</td></tr>
            """
        }
        let table: HTML =
            rows.isEmpty
            ? ""
            : """
            <table class="culprit"><thead><tr><th>kind</th><th>suspect</th><th class="n">failing</th>\
            <th class="n">passing</th><th class="n">score</th><th>evidence</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        return """
            <h2>What separates failing attempts</h2>
            <p>\(report.failingAttempts) failing and \(report.passingAttempts) passing attempt(s) over \(report.runs) run(s), \
            every configuration compared.</p>
            \(place)\(verdict)\(table)
            """
    }
}
