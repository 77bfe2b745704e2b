import LedgerCore
import LedgerStore

/// The project page's evidence: flaky and broken tests with their strips, judged predicates
/// with their margins, the noise runs left out and the recovered tests.
enum FlakySection {
    static func render(_ content: ProjectPage.Content) -> HTML {
        let report = content.flaky
        let cells = Cells(content: content)
        var sections = [flaky(report, cells)]
        if !report.broken.isEmpty { sections.append(broken(report, cells)) }
        sections.append(predicates(report.predicates, project: content.project))
        if !report.noiseRuns.isEmpty { sections.append(noise(report)) }
        if !report.recovered.isEmpty { sections.append(recovered(report, cells)) }
        return HTML(sections)
    }

    /// A test's name cell, linked to its page with its configuration and owners, and its strip.
    private struct Cells {
        let content: ProjectPage.Content

        func strip(_ test: String, _ configuration: String, fallback: String) -> HTML {
            guard let cells = content.strips[test] else { return "<code>\(fallback)</code>" }
            return OutcomeStrip.render(
                cells.filter { $0.configuration == configuration }, test: test, project: content.project)
        }

        func name(_ test: String, _ configuration: String, _ owners: [String]?, fix: RecordedFix.Brief? = nil) -> HTML {
            let link: HTML = "<a href=\"\(DashboardPath.test(test, project: content.project))\">\(test)</a>"
            let fixed: HTML = fix.map { " <span class=\"fix\">\(FlakyRendering.fixWords($0))</span>" } ?? ""
            let owned: HTML = "\(fixed)\(Layout.owners(owners))"
            return configuration.isEmpty
                ? "\(link)\(owned)" : "\(link) <span class=\"muted\">\(configuration)</span>\(owned)"
        }
    }

    private static func flaky(_ report: FlakyReport, _ cells: Cells) -> HTML {
        let rows = report.flaky.map { test -> HTML in
            """
            <tr><td class="id">\(cells.name(test.test, test.configuration, test.owners, fix: test.fix))</td>\
            <td class="n">\(Figures.decimal(test.score))</td><td class="n">\(test.runs)</td>\
            <td class="n">\(test.failures)</td><td class="n">\(test.retriedPasses)</td>\
            <td class="n">\(Figures.percent(test.flipRate))</td><td class="n">\(test.revisionsWithBoth)</td>\
            <td class="n">\(Figures.percent(test.failureProbability)) ± \(Figures.percent(test.uncertainty))</td>\
            <td class="n">\(Figures.quiet(test.quietRuns, of: test.quietRunsNeeded))</td>\
            <td>\(test.lastFlake ?? "–")</td><td>\(cells.strip(test.test, test.configuration, fallback: test.strip))</td></tr>
            """
        }
        let table: HTML =
            report.flaky.isEmpty
            ? "<p class=\"muted\">None.</p>"
            : """
            <table class="flaky"><thead><tr><th>test</th><th class="n">score</th><th class="n">runs</th>\
            <th class="n">fails</th><th class="n">retried</th><th class="n">flip rate</th>\
            <th class="n">revisions with both</th><th class="n">fails per run</th>\
            <th class="n" title="quiet runs in a row / needed to recover">quiet</th><th>last flake</th>\
            <th>recent runs</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        return "<h2>Flaky tests: \(report.flaky.count) over the last \(report.runs) run(s)</h2>\n\(table)"
    }

    private static func broken(_ report: FlakyReport, _ cells: Cells) -> HTML {
        let rows = report.broken.map { test -> HTML in
            """
            <tr><td class="id">\(cells.name(test.test, test.configuration, test.owners, fix: test.fix))</td>\
            <td class="n">\(test.runs)</td>\
            <td class="n">\(test.failures)</td><td class="n">\(Figures.percent(test.failureRate))</td>\
            <td class="n">\(test.failingStreak)</td>\
            <td>\(cells.strip(test.test, test.configuration, fallback: test.strip))</td></tr>
            """
        }
        return """
            <h2>Broken, not flaky: \(report.broken.count)</h2>
            <table class="broken"><thead><tr><th>test</th><th class="n">runs</th><th class="n">fails</th>\
            <th class="n">failure rate</th><th class="n">failing streak</th><th>recent runs</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    private static func noise(_ report: FlakyReport) -> HTML {
        let rows = report.noiseRuns.map { run -> HTML in
            """
            <tr><td class="id"><code>\(run.run)</code></td><td>\(run.startedAt)</td>\
            <td class="n">\(run.tests)</td><td class="n">\(run.failed)</td></tr>
            """
        }
        return """
            <h2>Infrastructure noise, left out: \(report.noiseRuns.count) run(s)</h2>
            <table><thead><tr><th>run</th><th>started</th><th class="n">tests</th><th class="n">failed</th>\
            </tr></thead><tbody>\(rows)</tbody></table>
            """
    }

    private static func recovered(_ report: FlakyReport, _ cells: Cells) -> HTML {
        let rows = report.recovered.map { test -> HTML in
            """
            <tr><td class="id">\(cells.name(test.test, test.configuration, test.owners))</td><td class="n">\(test.quietRuns)</td>\
            <td class="n">\(Figures.percent(test.earlierRate))</td>\
            <td class="n">\(Figures.chance(test.quietChance))</td><td>\(test.lastFlake ?? "–")</td>\
            <td>\(cells.strip(test.test, test.configuration, fallback: test.strip))</td></tr>
            """
        }
        return """
            <h2>Recovered: \(report.recovered.count)</h2>
            <table class="recovered"><thead><tr><th>test</th><th class="n">quiet runs</th>\
            <th class="n">earlier rate</th><th class="n">by chance</th><th>last flake</th><th>recent runs</th>\
            </tr></thead><tbody>\(rows)</tbody></table>
            """
    }

    static func predicates(_ findings: [PredicateFinding], project: String) -> HTML {
        guard !findings.isEmpty else { return "" }
        let rows = findings.map { finding -> HTML in
            let tone = finding.verdict == .broken ? "bad" : finding.verdict == .vacuous ? "" : "warn"
            return """
                <tr><td><span class="badge \(tone)">\(finding.verdict.rawValue)</span></td>\
                <td class="id"><a href="\(DashboardPath.test(finding.test, project: project))">\(finding.test)</a></td>\
                <td>\(finding.name) <span class="muted">(\(finding.expect.rawValue))</span></td>\
                <td class="n">\(finding.evaluations)</td><td class="n">\(finding.timeouts)</td>\
                <td>\(MarginBar.render(finding))</td>\
                <td class="n">\(Figures.seconds(finding.timeout))</td>\
                <td class="n">\(Figures.seconds(finding.suggestedTimeout))</td><td>\(finding.reason)</td></tr>
                """
        }
        return """
            <h2>Retry-based predicates: \(findings.count)</h2>
            <table class="predicates"><thead><tr><th>verdict</th><th>test</th><th>predicate</th>\
            <th class="n">evaluations</th><th class="n">timeouts</th><th>margin p50 / p95 / max</th>\
            <th class="n">timeout</th><th class="n">suggested</th><th>why</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
