import LedgerCore
import LedgerStore

/// `/projects/{project}`: the pyramid, flaky and broken tests with their strips, judged
/// predicates, the CI time flakiness cost and the recent runs.
enum ProjectPage {
    struct Content {
        var project: String
        /// `nil` when the project has no run.
        var pyramid: PyramidReport?
        var flaky: FlakyReport
        /// Per test, its outcomes over the flaky report's window, oldest first.
        var strips: [String: [AttemptsInRun]]
        var runs: [RunListing]
        /// The tests in quarantine, what they did since, and the newest changes to it.
        var quarantine = QuarantineSection.Content()
        /// The newest run's failures, classified.
        var newest: RunReport?
        /// The CI time the flaky tests cost over the window.
        var cost = CostReport(runs: 0, tests: [], lostRuns: [])
        /// The suite's figures week by week, and what happened to its tests meanwhile.
        var trends: TrendsReport?
        var events: [TrendsSection.Event] = []
    }

    /// At most this many of the newest run's failures are listed here; its page lists them all.
    static let newestFailures = 10

    static func render(_ content: Content) -> HTML {
        let sections: [HTML] = [
            "<h1>\(content.project)</h1>",
            newest(content.newest),
            pyramid(content.pyramid),
            FlakySection.render(content),
            CostSection.render(content.cost, project: content.project),
            content.trends.map { TrendsSection.render($0, events: content.events) } ?? "",
            QuarantineSection.render(content.quarantine, project: content.project),
            runs(content.runs, project: content.project),
        ]
        return Layout.page(content.project, crumbs: [.init(title: content.project)], HTML(sections))
    }

    static func pyramid(_ report: PyramidReport?) -> HTML {
        guard let report else { return "<h2>Test pyramid</h2><p class=\"muted\">No runs yet.</p>" }
        let scope = report.run.map { "run \($0)" } ?? "\(report.runs) runs"
        let rows = report.layers.map { figures -> HTML in
            """
            <tr><td>\(figures.layer.rawValue)</td><td class="n">\(figures.tests)</td>\
            <td class="n">\(Figures.percent(figures.share))</td><td class="n">\(Figures.seconds(figures.seconds))</td>\
            <td class="n">\(Figures.percent(figures.timeShare))</td>\
            <td class="n">\(Figures.seconds(figures.medianSeconds))</td>\
            <td class="n">\(Figures.percent(figures.failureRate))</td>\
            <td class="n">\(Figures.percent(figures.flakyRate))</td></tr>
            """
        }
        return """
            <h2>Test pyramid <span class="muted">(\(scope))</span></h2>
            <p>\(PyramidSVG.verdict(report.verdict)) \(report.reason)</p>
            \(PyramidSVG.render(report))
            <table><thead><tr><th>layer</th><th class="n">tests</th><th class="n">share</th><th class="n">time</th>\
            <th class="n">time share</th><th class="n">median</th><th class="n">failing</th>\
            <th class="n">flaky</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    /// The newest run's failures first: what a developer whose build went red looks for.
    static func newest(_ report: RunReport?) -> HTML {
        guard let report else { return "" }
        let link = DashboardPath.run(report.run, project: report.project)
        return """
            <h2>Newest run <a href="\(link)">\(Layout.runCode(report.run))</a>: \(RunReportRendering.headline(report))</h2>
            \(RunPage.failures(report, limit: newestFailures))
            """
    }

    static func runs(_ runs: [RunListing], project: String) -> HTML {
        let rows = runs.map { run -> HTML in
            var source: HTML = run.build.map { "\(run.source) · build \($0)" } ?? "\(run.source)"
            if let purpose = run.purpose { source = "\(source) · <strong>\(purpose)</strong>" }
            return """
                <tr><td class="id"><a href="\(DashboardPath.run(run.id, project: project))">\(Layout.runCode(run.id))</a></td>\
                <td>\(run.startedAt)</td><td>\(run.status.rawValue)</td><td>\(source)</td>\
                <td>\(run.revision.map { String($0.prefix(12)) } ?? "")</td><td>\(run.branch ?? "")</td>\
                <td>\(run.configuration)</td><td class="n">\(run.tests)</td><td class="n">\(run.passed)</td>\
                <td class="n">\(run.failed)</td><td class="n">\(run.muted)</td><td class="n">\(run.skipped)</td>\
                <td class="n">\(run.crashed)</td>\
                <td class="n">\(run.flaky)</td><td class="n">\(Figures.seconds(run.duration))</td></tr>
                """
        }
        guard !runs.isEmpty else { return "<h2>Recent runs</h2><p class=\"muted\">No runs yet.</p>" }
        return """
            <h2>Recent runs</h2>
            <table><thead><tr><th>run</th><th>started</th><th>status</th><th>source</th><th>revision</th>\
            <th>branch</th><th>configuration</th><th class="n">tests</th><th class="n">passed</th>\
            <th class="n">failed</th><th class="n">muted</th><th class="n">skipped</th><th class="n">crashed</th>\
            <th class="n">flaky</th><th class="n">time</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
