import LedgerCore
import LedgerStore

/// `/projects/{project}/runs/{run}`: a run's counts, then its failures classified against the
/// base branch, or the project's earlier runs when it has none (the headline says which), most
/// useful first, with their owners and messages, their shared causes, and the tests it fixed.
enum RunPage {
    /// The most failing attempts drawn with what ran beside them.
    static let timelinesShown = 5

    struct Content {
        var run: RunListing
        var report: RunReport
        /// The first failing attempts that had other tests beside them.
        var timelines: [AttemptTimeline] = []
    }

    static func render(_ content: Content) -> HTML {
        let (run, report) = (content.run, content.report)
        let title = "Run " + Layout.shortRun(run.id)
        let sections: [HTML] = [
            "<h1>\(title)</h1>",
            summary(run),
            "<h2>\(RunReportRendering.headline(report))</h2>",
            report.notAffected.map { "<p class=\"muted\">\($0.sentence).</p>" } ?? "",
            causes(report),
            failures(report),
            timelines(content.timelines),
            fixed(report),
        ]
        return Layout.page(
            title,
            crumbs: [.init(title: run.project, href: DashboardPath.project(run.project)), .init(title: title)],
            HTML(sections))
    }

    static func summary(_ run: RunListing) -> HTML {
        let reported: HTML =
            run.reported.map { counts in
                " · the runner counted \(counts.tests) tests, \(counts.failures) failures, \(counts.errors) errors"
            } ?? ""
        let facts: [HTML] = [
            "\(run.status.rawValue)", "\(run.source)", "started \(run.startedAt)",
            "took \(Figures.seconds(run.duration))",
            run.branch.map { "branch <code>\($0)</code>" } ?? "",
            run.revision.map { "revision <code>\(String($0.prefix(12)))</code>" } ?? "",
            run.build.map { "build \($0)" } ?? "",
            run.configuration.isEmpty ? "" : "configuration \(run.configuration)",
        ].filter { !$0.description.isEmpty }
        return """
            <p><code title="\(run.id)">\(run.id)</code> · \(HTML(interleaving: facts, with: " · "))</p>
            <table class="counts"><thead><tr><th class="n">tests</th><th class="n">passed</th><th class="n">failed</th>\
            <th class="n">muted</th><th class="n">skipped</th><th class="n">crashed</th>\
            <th class="n">passed on retry</th></tr></thead>
            <tbody><tr><td class="n">\(run.tests)</td><td class="n">\(run.passed)</td><td class="n">\(run.failed)</td>\
            <td class="n">\(run.muted)</td><td class="n">\(run.skipped)</td><td class="n">\(run.crashed)</td>\
            <td class="n">\(run.flaky)</td></tr></tbody></table>
            <p class="muted">\(reported)</p>
            """
    }

    static func verdict(_ verdict: RunReport.Verdict) -> HTML {
        let tone: String
        switch verdict {
        case .new: tone = "bad"
        case .failedBefore, .knownFlaky: tone = "warn"
        case .failingOnBase, .quarantined: tone = ""
        }
        let title = RunReportRendering.titles[verdict] ?? verdict.rawValue
        return "<span class=\"badge \(tone)\">\(title)</span>"
    }

    /// The failures as a table: verdict, test, evidence, owners, message.
    static func failures(_ report: RunReport, limit: Int? = nil) -> HTML {
        guard !report.failures.isEmpty else { return "" }
        let shown = limit.map { Array(report.failures.prefix($0)) } ?? report.failures
        let owned = shown.contains { !($0.owners ?? []).isEmpty }
        let rows = shown.map { failure -> HTML in
            let link = DashboardPath.test(failure.test, project: report.project, run: report.run)
            let owners: HTML = owned ? "<td>\((failure.owners ?? []).joined(separator: " "))</td>" : ""
            let strip: HTML = failure.strip.map { " <code>\($0)</code>" } ?? ""
            return """
                <tr><td>\(verdict(failure.verdict))</td><td class="id"><a href="\(link)">\(failure.test)</a></td>\
                <td>\(failure.evidence)\(strip)</td>\(owners)\
                <td><pre>\(failure.message ?? "")</pre></td></tr>
                """
        }
        let more: HTML =
            shown.count < report.failures.count
            ? "<p class=\"muted\">… and \(report.failures.count - shown.count) more on the run's page.</p>" : ""
        return """
            <table class="failures"><thead><tr><th>verdict</th><th>test</th><th>why</th>\
            \(owned ? "<th>owners</th>" : "" as HTML)<th>message</th></tr></thead>
            <tbody>\(rows)</tbody></table>\(more)
            """
    }

    static func causes(_ report: RunReport) -> HTML {
        let shared = report.groups.filter { $0.tests.count > 1 }
        guard !shared.isEmpty else { return "" }
        let rows = shared.map { group -> HTML in
            let examples = group.tests.prefix(3).map { test -> HTML in
                "<a href=\"\(DashboardPath.test(test, project: report.project, run: report.run))\">\(test)</a>"
            }
            let more: HTML = group.tests.count > 3 ? " and \(group.tests.count - 3) more" : ""
            return """
                <tr><td class="n">\(group.tests.count)</td><td><code>\(group.signature)</code>\
                \(group.location.map { " <span class=\"muted\">at \($0)</span>" } ?? "")</td>\
                <td class="id">\(HTML(interleaving: examples, with: ", "))\(more)</td>\
                <td>\((group.owners ?? []).joined(separator: " "))</td></tr>
                """
        }
        return """
            <h3>Shared causes</h3>
            <table class="causes"><thead><tr><th class="n">tests</th><th>cause</th><th>tests</th><th>owners</th>\
            </tr></thead><tbody>\(rows)</tbody></table>
            """
    }

    /// Each timeline, under the failing test's link.
    static func timelines(_ timelines: [AttemptTimeline]) -> HTML {
        guard !timelines.isEmpty else { return "" }
        return "<h3>What ran beside the failures</h3>\(timelines.map(TimelineChart.render))"
    }

    static func fixed(_ report: RunReport) -> HTML {
        guard !report.fixed.isEmpty else { return "" }
        let links = report.fixed.map { test -> HTML in
            "<a href=\"\(DashboardPath.test(test, project: report.project, run: report.run))\">\(test)</a>"
        }
        return """
            <h3>Fixed (\(RunReportRendering.fixedTitle(report)))</h3><p>\(HTML(interleaving: links, with: ", "))</p>
            """
    }
}
