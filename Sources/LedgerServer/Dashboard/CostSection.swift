import LedgerCore

/// The project page's cost of flakiness: the CI time lost over the window, per owner, and the
/// costliest tests.
enum CostSection {
    /// At most this many tests are listed; `report cost` lists them all.
    static let tests = 10

    static func render(_ report: CostReport, project: String) -> HTML {
        let headline: HTML = "<p>\(CostRendering.headline(report))</p>"
        guard !report.tests.isEmpty else {
            return "<h2>CI time lost to flaky tests</h2>\n\(headline)"
        }
        let owners = report.byOwner.map { owner -> HTML in
            """
            <tr><td>\(owner.owner)</td><td class="n">\(owner.tests)</td>\
            <td class="n">\(Figures.seconds(owner.seconds))</td></tr>
            """
        }
        let ownerTable: HTML =
            owners.isEmpty
            ? ""
            : """
            <table class="cost-owners"><thead><tr><th>owner</th><th class="n">flaky tests</th>\
            <th class="n">time lost</th></tr></thead><tbody>\(HTML(owners))</tbody></table>
            """
        let rows = report.tests.prefix(tests).map { test -> HTML in
            """
            <tr><td class="id"><a href="\(DashboardPath.test(test.test, project: project))">\(test.test)</a>\
            \(Layout.owners(test.owners))</td><td class="n">\(Figures.seconds(test.seconds))</td>\
            <td class="n">\(test.failedAttempts)</td><td class="n">\(test.reruns)</td>\
            <td class="n">\(test.lostRuns)</td></tr>
            """
        }
        return """
            <h2>CI time lost to flaky tests</h2>
            \(headline)
            \(ownerTable)
            <table class="cost"><thead><tr><th>test</th><th class="n">time lost</th>\
            <th class="n">failed attempts</th><th class="n">re-runs</th><th class="n">lost runs</th></tr></thead>
            <tbody>\(HTML(rows))</tbody></table>
            """
    }
}
