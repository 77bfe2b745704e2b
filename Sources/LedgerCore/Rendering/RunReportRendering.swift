import Foundation

/// `report run` as a terminal table or Markdown short enough for a pull request or a CI job's
/// summary: the counts, then the failures most useful first, then what the run fixed.
public enum RunReportRendering {
    /// At most this many failures are listed; the counts cover them all.
    public static let listed = 20
    /// At most this many causes are listed.
    public static let listedCauses = 5

    /// The groups that join several tests' failures: a shared cause worth saying first.
    static func causes(_ report: RunReport) -> [FailureGroup] {
        Array(report.groups.filter { $0.tests.count > 1 }.prefix(listedCauses))
    }

    /// `40 tests: Fixture <n> not found (e.g. App.A/test1, App.B/test2)`.
    static func cause(_ group: FailureGroup) -> (tests: String, signature: String, examples: String) {
        let shown = group.tests.prefix(2).joined(separator: ", ")
        return (
            "\(group.tests.count) tests", short(group.signature, 100) + (group.location.map { " (at \($0))" } ?? ""),
            group.tests.count > 2 ? shown + ", …" : shown
        )
    }

    /// Each verdict in words.
    public static let titles: [RunReport.Verdict: String] = [
        .new: "new", .failedBefore: "failed before", .failingOnBase: "failing on base too",
        .knownFlaky: "known flaky", .quarantined: "quarantined",
    ]

    /// One line: `3 failure(s) in 40 tests: 1 new, 2 known flaky`, then what was compared when
    /// it was not the base branch.
    public static func headline(_ report: RunReport) -> String {
        guard !report.failures.isEmpty else { return "no failures in \(report.tests) tests" }
        let counts = report.counts
        let parts = RunReport.Verdict.allCases.compactMap { verdict in
            counts[verdict].map { "\($0) \(titles[verdict] ?? verdict.rawValue)" }
        }
        let base =
            comparison(report).map { " (\($0))" }
            ?? (report.failures.contains { $0.verdict == .failingOnBase } ? " (base: \(report.base))" : "")
        return "\(report.failures.count) failure(s) in \(report.tests) tests: " + parts.joined(separator: ", ") + base
    }

    /// What the failures were compared with when it is not the base branch:
    /// `no main runs: compared with the 30 runs before`; `nil` when the base branch's runs were.
    public static func comparison(_ report: RunReport) -> String? {
        guard report.comparedWith.branch == nil else { return nil }
        let runs = report.comparedWith.runs
        return "no \(report.base) runs: "
            + (runs == 0
                ? "no run before to compare with" : "compared with \(RunReport.BaseHistory.theRuns(runs)) before")
    }

    /// What a fixed test did before: `failing on main, passing here`.
    public static func fixedTitle(_ report: RunReport) -> String {
        (report.comparedWith.branch.map { "failing on \($0)" } ?? "failing in the run before") + ", passing here"
    }

    /// The report as a terminal table under its headline.
    public static func table(_ report: RunReport) -> String {
        var text =
            "Run \(report.run)" + (report.comparedWith.branch.map { " against \($0)" } ?? "") + ": "
            + headline(report)
        if let notAffected = report.notAffected { text += "\n" + notAffected.sentence }
        for group in causes(report) {
            let (tests, signature, examples) = cause(group)
            text += "\nShared cause, \(tests): \(signature) (\(examples))"
        }
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
            text += "\nFixed (\(fixedTitle(report))): " + report.fixed.joined(separator: ", ")
        }
        return text
    }

    /// The Markdown heading that leads a report: its headline.
    public static func heading(_ report: RunReport) -> String {
        "### TestLedger: " + TextTable.escapeMarkdown(headline(report))
    }

    /// A page of the dashboard at `dashboard`, its path made of `segments`, each percent-encoded.
    public static func address(_ dashboard: URL, _ segments: [String]) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let path = segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        return dashboard.absoluteString.trimmingCharacters(in: ["/"]) + "/" + path.joined(separator: "/")
    }

    /// The report as Markdown; each test links to its result on the dashboard when `dashboard`
    /// (the server's address) is given. At most `rows` failures are listed.
    public static func markdown(_ report: RunReport, dashboard: URL? = nil, rows: Int = listed) -> String {
        func link(_ test: String) -> String {
            let name = code(test)
            guard let dashboard else { return name }
            return "[\(name)](\(address(dashboard, ["projects", report.project, "tests", test]))?run=\(report.run))"
        }
        var lines = [heading(report)]
        if let notAffected = report.notAffected { lines += ["", TextTable.escapeMarkdown(notAffected.sentence) + "."] }
        let shared = causes(report)
        if !shared.isEmpty {
            lines.append("")
            for group in shared {
                let (tests, signature, examples) = cause(group)
                lines.append(
                    "- **\(tests)** share one cause: " + code(signature) + " (" + TextTable.escapeMarkdown(examples)
                        + ")")
            }
        }
        if !report.failures.isEmpty {
            let owned = report.failures.contains { !($0.owners ?? []).isEmpty }
            lines += [
                "", "| | test | why | message |" + (owned ? " owners |" : ""),
                "| --- | --- | --- | --- |" + (owned ? " --- |" : ""),
            ]
            for failure in report.failures.prefix(rows) {
                var cells = [
                    "**" + (titles[failure.verdict] ?? failure.verdict.rawValue) + "**", link(failure.test),
                    TextTable.escapeMarkdown(failure.evidence),
                    TextTable.escapeMarkdown(short(failure.message, 120)),
                ]
                if owned { cells.append(TextTable.escapeMarkdown((failure.owners ?? []).joined(separator: " "))) }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            if report.failures.count > rows {
                lines += ["", "… and \(report.failures.count - rows) more failures."]
            }
        }
        if !report.fixed.isEmpty {
            let shown = report.fixed.prefix(rows).map(link).joined(separator: ", ")
            let more = report.fixed.count > rows ? " and \(report.fixed.count - rows) more" : ""
            lines += ["", "**Fixed** (\(fixedTitle(report))): " + shown + more]
        }
        return lines.joined(separator: "\n")
    }

    /// A code span; a `|` ends a table cell even inside one unless escaped.
    static func code(_ text: String) -> String {
        "`" + text.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|") + "`"
    }

    /// A message's first line, at most `length` characters.
    static func short(_ message: String?, _ length: Int) -> String {
        let line = message?.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        return line.count > length ? line.prefix(length - 1) + "…" : line
    }
}
