import LedgerStore

/// `/`: the projects the caller may read, newest activity first.
enum ProjectsPage {
    static func render(_ projects: [ProjectListing]) -> HTML {
        let rows = projects.map { project -> HTML in
            """
            <tr><td><a href="\(DashboardPath.project(project.project))">\(project.project)</a></td>\
            <td class="n">\(project.runs)</td><td>\(project.latestRun)</td></tr>
            """
        }
        let content: HTML =
            projects.isEmpty
            ? "<p class=\"muted\">No runs recorded yet. Send some with <code>testledger upload</code>.</p>"
            : """
            <table><thead><tr><th>project</th><th class="n">runs</th><th>latest run</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        return Layout.page("Projects", "<h1>Projects</h1>\n\(content)")
    }
}
