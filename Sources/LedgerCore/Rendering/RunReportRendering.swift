import Foundation

/// `report run` as a terminal table or Markdown short enough for a pull request or a CI job's
/// summary: the counts, then the failures most useful first, then what the run fixed.
public enum RunReportRendering {
    /// At most this many failures are listed; the counts cover them all.
    public static let listed = 20

    static let titles: [RunReport.Verdict: String] = [
        .new: "new", .failedBefore: "failed before", .failingOnBase: "failing on base too",
        .knownFlaky: "known flaky", .quarantined: "quarantined",
    ]

    /// One line: `3 failures: 1 new, 2 known flaky`.
    public static func headline(_ report: RunReport) -> String {
        guard !report.failures.isEmpty else { return "no failures in \(report.tests) tests" }
        let counts = report.counts
        let parts = RunReport.Verdict.allCases.compactMap { verdict in
            counts[verdict].map { "\($0) \(titles[verdict] ?? verdict.rawValue)" }
        }
        let base = report.failures.contains { $0.verdict == .failingOnBase } ? " (base: \(report.base))" : ""
        return "\(report.failures.count) failure(s) in \(report.tests) tests: " + parts.joined(separator: ", ") + base
    }

    /// The report as a terminal table under its headline.
    public static func table(_ report: RunReport) -> String {
        var text = "Run \(report.run) against \(report.base): " + headline(report)
        if !report.failures.isEmpty {
            let table = TextTable(
                headers: ["verdict", "test", "evidence", "message"],
                rows: report.failures.prefix(listed).map {
                    [titles[$0.verdict] ?? $0.verdict.rawValue, $0.test, $0.evidence, short($0.message, 80)]
                }
            ).withOwners(report.failures.prefix(listed).map(\.owners))
            text += "\n" + table.plain
            if report.failures.count > listed { text += "\n… and \(report.failures.count - listed) more" }
        }
        if !report.fixed.isEmpty {
            text += "\nFixed (failing on \(report.base), passing here): " + report.fixed.joined(separator: ", ")
        }
        return text
    }

    /// The report as Markdown; each test links to its result on the dashboard when `dashboard`
    /// (the server's address) is given.
    public static func markdown(_ report: RunReport, dashboard: URL? = nil) -> String {
        func link(_ test: String) -> String {
            // A `|` ends a table cell even inside a code span unless escaped.
            let name =
                "`" + test.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|") + "`"
            guard let dashboard else { return name }
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove("/")
            let path = ["projects", report.project, "tests", test].map {
                $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0
            }.joined(separator: "/")
            return "[\(name)](\(dashboard.absoluteString.trimmingCharacters(in: ["/"]))/\(path)?run=\(report.run))"
        }
        var lines = ["### TestLedger: " + TextTable.escapeMarkdown(headline(report))]
        if !report.failures.isEmpty {
            let owned = report.failures.contains { !($0.owners ?? []).isEmpty }
            lines += [
                "", "| | test | why | message |" + (owned ? " owners |" : ""),
                "| --- | --- | --- | --- |" + (owned ? " --- |" : ""),
            ]
            for failure in report.failures.prefix(listed) {
                var cells = [
                    "**" + (titles[failure.verdict] ?? failure.verdict.rawValue) + "**", link(failure.test),
                    TextTable.escapeMarkdown(failure.evidence),
                    TextTable.escapeMarkdown(short(failure.message, 120)),
                ]
                if owned { cells.append(TextTable.escapeMarkdown((failure.owners ?? []).joined(separator: " "))) }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            if report.failures.count > listed {
                lines += ["", "… and \(report.failures.count - listed) more failures."]
            }
        }
        if !report.fixed.isEmpty {
            let shown = report.fixed.prefix(listed).map(link).joined(separator: ", ")
            let more = report.fixed.count > listed ? " and \(report.fixed.count - listed) more" : ""
            lines += ["", "**Fixed** (failing on \(report.base), passing here): " + shown + more]
        }
        return lines.joined(separator: "\n")
    }

    /// A message's first line, at most `length` characters.
    static func short(_ message: String?, _ length: Int) -> String {
        let line = message?.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        return line.count > length ? line.prefix(length - 1) + "…" : line
    }
}
