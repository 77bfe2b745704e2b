/// `report cost` as terminal tables or Markdown.
public enum CostRendering {
    /// The report as titled terminal tables: the total, the tests, the lost runs, the owners.
    public static func table(_ report: CostReport) -> String {
        ([headline(report)] + sections(report).map { title, table in title + "\n" + table.plain })
            .joined(separator: "\n\n")
    }

    /// The report as Markdown, each section under a `###` heading.
    public static func markdown(_ report: CostReport) -> String {
        ([headline(report)] + sections(report).map { title, table in "### " + title + "\n\n" + table.markdown })
            .joined(separator: "\n\n")
    }

    /// One line: the time lost, over how many runs.
    public static func headline(_ report: CostReport) -> String {
        "Flaky tests cost \(duration(report.seconds)) of CI time over \(report.runs) run(s): "
            + "\(report.tests.count) test(s), \(report.lostRuns.count) run(s) failed only because of them"
    }

    /// Seconds as a person reads a long time: `42.5s`, `12.3 min`, `4.1 h`.
    static func duration(_ seconds: Double) -> String {
        if seconds >= 3_600 { return Figures.format2(seconds / 3_600) + " h" }
        if seconds >= 60 { return Figures.format2(seconds / 60) + " min" }
        return Figures.seconds(seconds)
    }

    static func sections(_ report: CostReport) -> [(String, TextTable)] {
        let tests = TextTable(
            headers: ["test", "lost", "failed attempts", "re-runs", "lost runs"],
            rows: report.tests.map {
                [
                    $0.test, Figures.seconds($0.seconds),
                    "\($0.failedAttempts) (\(Figures.seconds($0.failedSeconds)))",
                    "\($0.reruns) (\(Figures.seconds($0.rerunSeconds)))",
                    "\($0.lostRuns) (\(Figures.seconds($0.lostRunSeconds)))",
                ]
            }, numeric: [1, 2, 3, 4]
        ).withOwners(report.tests.map(\.owners))
        let runs = TextTable(
            headers: ["run", "seconds", "failed by"],
            rows: report.lostRuns.map {
                [String($0.run.prefix(8)), Figures.seconds($0.seconds), $0.tests.joined(separator: ", ")]
            },
            numeric: [1])
        var sections = [
            ("Tests: \(report.tests.count) flaky test(s), the costliest first", tests),
            ("Runs that failed only because of flaky tests: \(report.lostRuns.count)", runs),
        ]
        let owners = report.byOwner
        if !owners.isEmpty {
            sections.append(
                (
                    "Owners",
                    TextTable(
                        headers: ["owner", "tests", "lost"],
                        rows: owners.map { [$0.owner, "\($0.tests)", Figures.seconds($0.seconds)] }, numeric: [1, 2])
                ))
        }
        return sections
    }
}
