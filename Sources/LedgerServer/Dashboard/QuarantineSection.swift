import LedgerCore
import LedgerStore

/// The project page's quarantine: each test with why, since when and what it did since, then the
/// newest changes of the trail.
enum QuarantineSection {
    struct Content {
        var entries: [QuarantinedTest] = []
        var results: [String: ResultsInQuarantine] = [:]
        /// Newest first.
        var changes: [QuarantineChange] = []
    }

    static func render(_ content: Content, project: String) -> HTML {
        guard !content.entries.isEmpty || !content.changes.isEmpty else { return "" }
        let rows = content.entries.map { entry -> HTML in
            let results = content.results[entry.test]
            return """
                <tr><td><a href="\(DashboardPath.test(entry.test, project: project))">\(entry.test)</a></td>\
                <td>\(configuration(entry.configuration))</td><td>\(entry.mode.rawValue)</td>\
                <td>\(iso8601(entry.since))</td><td>\(entry.until.map(iso8601) ?? "")</td>\
                <td>\(QuarantineRendering.actor(entry.by, automatic: entry.automatic))</td><td>\(entry.reason)</td>\
                <td class="n">\(results?.runs ?? 0)</td><td class="n">\(results?.failures ?? 0)</td></tr>
                """
        }
        let changes = content.changes.map { change -> HTML in
            """
            <tr><td>\(iso8601(change.at))</td><td>\(change.action.rawValue)</td><td>\(change.test)</td>\
            <td>\(configuration(change.configuration))</td><td>\(change.mode?.rawValue ?? "")</td>\
            <td>\(QuarantineRendering.actor(change.by, automatic: change.automatic))</td><td>\(change.reason)</td></tr>
            """
        }
        return """
            <h2>Quarantine</h2>
            <table class="quarantine"><thead><tr><th>test</th><th>configuration</th><th>mode</th><th>since</th>\
            <th>until</th><th>by</th><th>reason</th><th class="n">runs since</th>\
            <th class="n">failed since</th></tr></thead>
            <tbody>\(HTML(rows))</tbody></table>
            <h3>Changes</h3>
            <table class="quarantine-log"><thead><tr><th>at</th><th>action</th><th>test</th><th>configuration</th>\
            <th>mode</th><th>by</th><th>reason</th></tr></thead>
            <tbody>\(HTML(changes))</tbody></table>
            """
    }

    private static func configuration(_ name: String) -> String {
        name == QuarantinedTest.everyConfiguration ? "every" : name
    }
}
