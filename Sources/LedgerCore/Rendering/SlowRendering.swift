/// `report slow` as terminal tables or Markdown.
public enum SlowRendering {
    /// The report as titled terminal tables: the slowdowns first, then the slowest tests.
    public static func table(_ report: SlowReport) -> String {
        sections(report).map { title, table in title + "\n" + table.plain }.joined(separator: "\n\n")
    }

    /// The report as Markdown, each section under a `###` heading.
    public static func markdown(_ report: SlowReport) -> String {
        sections(report).map { title, table in "### " + title + "\n\n" + table.markdown }.joined(separator: "\n\n")
    }

    static func sections(_ report: SlowReport) -> [(String, TextTable)] {
        let criteria = report.criteria
        let slowdowns = TextTable(
            headers: ["test", "config", "p50 before", "p50 now", "change", "change %", "runs"],
            rows: report.slowdowns.map {
                [
                    $0.test, $0.configuration, Figures.seconds($0.previousP50), Figures.seconds($0.p50),
                    "+" + Figures.seconds($0.change), $0.changeShare.map { "+" + Figures.percent($0) } ?? "–",
                    "\($0.previousRuns) → \($0.runs)",
                ]
            }, numeric: [2, 3, 4, 5, 6]
        ).withOwners(report.slowdowns.map(\.owners))
        let slowest = TextTable(
            headers: ["test", "config", "p50", "p90", "p95", "max", "runs"],
            rows: report.slowest.map {
                [
                    $0.test, $0.configuration, Figures.seconds($0.p50), Figures.seconds($0.p90),
                    Figures.seconds($0.p95), Figures.seconds($0.max), "\($0.runs)",
                ]
            }, numeric: [2, 3, 4, 5, 6]
        ).withOwners(report.slowest.map(\.owners))
        return [
            (
                "Slower: \(report.slowdowns.count) test(s) whose median grew by more than "
                    + "\(Figures.percent(criteria.growth)) and \(Figures.seconds(criteria.minimumChange)) "
                    + "(\(report.runs) run(s) against the \(report.previousRuns) before)",
                slowdowns
            ),
            ("Slowest: \(report.slowest.count) test(s) by median over \(report.runs) run(s)", slowest),
        ]
    }
}
