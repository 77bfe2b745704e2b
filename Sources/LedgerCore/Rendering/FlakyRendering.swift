/// `report flaky` as terminal tables or Markdown.
public enum FlakyRendering {
    /// The report as titled terminal tables, separated by blank lines.
    ///
    /// The flaky table always comes first; the broken tests, predicates, noise runs and recovered
    /// tests follow, each only when there are any.
    ///
    /// - Parameter report: the report to draw.
    /// - Returns: plain text for a terminal.
    public static func table(_ report: FlakyReport) -> String {
        sections(report).map { title, table in title + "\n" + table.plain }.joined(separator: "\n\n")
    }

    /// The report as Markdown: the same sections as ``table(_:)``, each under a `###` heading.
    ///
    /// - Parameter report: the report to draw.
    /// - Returns: GitHub-flavoured Markdown, with the cells escaped.
    public static func markdown(_ report: FlakyReport) -> String {
        sections(report).map { title, table in "### " + title + "\n\n" + table.markdown }
            .joined(separator: "\n\n")
    }

    /// A test id with its quarantine and its followed fix, as in `App.Cart/testTotal (muted)
    /// (fix-pending d842132c)`.
    static func marked(_ test: String, _ quarantined: QuarantineMode?, _ fix: RecordedFix.Brief? = nil) -> String {
        let muted =
            switch quarantined {
            case .mute: test + " (muted)"
            case .skip: test + " (skipped)"
            case nil: test
            }
        return muted + (fix.map { " (\(fixWords($0)))" } ?? "")
    }

    /// A followed fix in words: `fix-pending d842132c`, `fix-landed d842132c, 4 of 20 clean runs`.
    public static func fixWords(_ fix: RecordedFix.Brief) -> String {
        let words = "\(fix.state.rawValue) \(fix.revision.prefix(8))"
        return fix.state == .landed ? words + ", \(fix.cleanRuns) of \(fix.runsToRelease) clean runs" : words
    }

    static func sections(_ report: FlakyReport) -> [(String, TextTable)] {
        var sections = [("Flaky tests: \(report.flaky.count) over the last \(report.runs) run(s)", flakyTable(report))]
        if !report.broken.isEmpty {
            sections.append(("Broken (not flaky): \(report.broken.count)", brokenTable(report)))
        }
        if !report.predicates.isEmpty {
            sections.append(("Retry-based predicates: \(report.predicates.count)", predicateTable(report)))
        }
        if !report.noiseRuns.isEmpty {
            sections.append(
                (
                    "Infrastructure noise, left out: \(report.noiseRuns.count) run(s)",
                    TextTable(
                        headers: ["run", "started", "tests", "failed"],
                        rows: report.noiseRuns.map { [$0.run, $0.startedAt, "\($0.tests)", "\($0.failed)"] },
                        numeric: [2, 3])
                ))
        }
        if !report.recovered.isEmpty {
            sections.append(("Recovered: \(report.recovered.count)", recoveredTable(report)))
        }
        return sections
    }

    private static func flakyTable(_ report: FlakyReport) -> TextTable {
        TextTable(
            headers: [
                "test", "config", "score", "runs", "fails", "retried", "flip rate", "revs", "quiet", "last flake",
                "history",
            ] + (report.flaky.contains { $0.culprit != nil } ? ["likely cause"] : []),
            rows: report.flaky.map {
                [
                    marked($0.test, $0.quarantined, $0.fix), $0.configuration, Figures.decimal($0.score), "\($0.runs)",
                    "\($0.failures)", "\($0.retriedPasses)", Figures.percent($0.flipRate), "\($0.revisionsWithBoth)",
                    Figures.quiet($0.quietRuns, of: $0.quietRunsNeeded), $0.lastFlake ?? "–", $0.strip,
                ] + ($0.culprit.map { [CulpritRendering.brief($0)] } ?? [])
            }, numeric: [2, 3, 4, 5, 6, 7, 8]
        ).withOwners(report.flaky.map(\.owners))
    }

    private static func brokenTable(_ report: FlakyReport) -> TextTable {
        TextTable(
            headers: ["test", "config", "runs", "fails", "failure rate", "streak", "history"],
            rows: report.broken.map {
                [
                    marked($0.test, $0.quarantined, $0.fix), $0.configuration, "\($0.runs)", "\($0.failures)",
                    Figures.percent($0.failureRate), "\($0.failingStreak)", $0.strip,
                ]
            }, numeric: [2, 3, 4, 5]
        ).withOwners(report.broken.map(\.owners))
    }

    private static func predicateTable(_ report: FlakyReport) -> TextTable {
        TextTable(
            headers: [
                "verdict", "test", "predicate", "expect", "evals", "timeouts", "p50", "p95", "max", "timeout",
                "suggested", "why",
            ],
            rows: report.predicates.map {
                [
                    $0.verdict.rawValue, $0.test, $0.name, $0.expect.rawValue, "\($0.evaluations)", "\($0.timeouts)",
                    Figures.percent($0.marginP50), Figures.percent($0.marginP95), Figures.percent($0.marginMax),
                    Figures.seconds($0.timeout), Figures.seconds($0.suggestedTimeout), $0.reason,
                ]
            }, numeric: [4, 5, 6, 7, 8, 9, 10])
    }

    private static func recoveredTable(_ report: FlakyReport) -> TextTable {
        TextTable(
            headers: ["test", "config", "runs", "quiet", "earlier rate", "by chance", "last flake", "history"],
            rows: report.recovered.map {
                [
                    marked($0.test, $0.quarantined), $0.configuration, "\($0.runs)", "\($0.quietRuns)",
                    Figures.percent($0.earlierRate), Figures.chance($0.quietChance), $0.lastFlake ?? "–", $0.strip,
                ]
            }, numeric: [2, 3, 4, 5]
        ).withOwners(report.recovered.map(\.owners))
    }
}
