/// `report culprit` as terminal text or Markdown.
public enum CulpritRendering {
    /// The report as terminal text: the headline, where it fails, then the suspects.
    public static func text(_ report: CulpritReport) -> String {
        var lines = [headline(report)]
        if let place = place(report) { lines.append("Fails at: " + place) }
        lines.append(verdict(report))
        if !report.suspects.isEmpty { lines += ["", table(report).plain] }
        return lines.joined(separator: "\n")
    }

    /// The report as Markdown: the same parts, the suspects as a table.
    public static func markdown(_ report: CulpritReport) -> String {
        var parts = ["### Why `\(report.test)` fails", headline(report)]
        if let place = place(report) { parts.append("Fails at: " + place) }
        parts.append(verdict(report))
        if !report.suspects.isEmpty { parts.append(table(report).markdown) }
        return parts.joined(separator: "\n\n")
    }

    /// The top suspect in a few words, for a column of another report: `predicate spinner hidden
    /// (9/9 failing)`; the verdict's word when there is no suspect.
    public static func brief(_ brief: CulpritReport.Brief) -> String {
        guard let top = brief.suspect else { return brief.verdict.rawValue }
        return "\(top.kind.rawValue) \(top.name) (\(top.failing.count)/\(top.failing.of) failing)"
    }

    /// The top suspect in a clause: "likely: `spinner hidden` (predicate) timed out in 9 of 9
    /// failing attempts".
    public static func likely(_ brief: CulpritReport.Brief) -> String? {
        brief.suspect.map { suspect in
            let clause = suspect.evidence.range(of: " and ").map { String(suspect.evidence[..<$0.lowerBound]) }
            return "likely: `\(suspect.name)` (\(suspect.kind.rawValue)) \(clause ?? suspect.evidence)"
        }
    }

    /// The suspects as a table, the likeliest first.
    public static func table(_ report: CulpritReport) -> TextTable {
        TextTable(
            headers: ["kind", "suspect", "failing", "passing", "score", "evidence"],
            rows: report.suspects.map {
                [
                    $0.kind.rawValue, $0.name, "\($0.failing.count)/\($0.failing.of)",
                    "\($0.passing.count)/\($0.passing.of)", Figures.decimal($0.score), $0.evidence,
                ]
            }, numeric: [2, 3, 4])
    }

    static func headline(_ report: CulpritReport) -> String {
        let configuration =
            report.configuration == "*"
            ? "every configuration" : report.configuration.isEmpty ? "no configuration named" : report.configuration
        return "\(report.test) (\(configuration)): \(report.failingAttempts) failing and "
            + "\(report.passingAttempts) passing attempt(s) over \(report.runs) run(s)"
    }

    static func place(_ report: CulpritReport) -> String? {
        guard let place = report.where else { return nil }
        var text = Figures.place(place.file, place.line) ?? "no file named"
        if let activity = place.activity { text += " in `\(activity)`" }
        text += " (\(place.attempts) of \(report.failingAttempts))"
        if let message = place.message { text += ": " + (message.split(separator: "\n").first.map(String.init) ?? "") }
        return text
    }

    static func verdict(_ report: CulpritReport) -> String {
        switch report.verdict {
        case .suspects:
            return "Suspects: \(report.suspects.count), the likeliest first."
        case .tooFewFailures:
            return "Too few failures to tell: \(report.failingAttempts) failing attempt(s); a verdict needs "
                + "\(report.minimumFailures)."
        case .noSeparation:
            return "Nothing separates the failing attempts from the passing ones. Compared: "
                + report.compared.joined(separator: ", ") + "."
        }
    }
}
