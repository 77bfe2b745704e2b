import Foundation
import LedgerCore

/// What a test's page shows of one result: failures, the activities tree, captures, predicates.
enum TestEvidence {
    static func failures(_ issues: [LedgerEvent.Issue]) -> HTML {
        guard !issues.isEmpty else { return "" }
        let items = issues.map { issue -> HTML in
            let place = Figures.place(issue.file, issue.line).map { " at \($0)" } ?? ""
            return
                "<li><pre>\(issue.message)</pre><span class=\"muted\">\(issue.kind?.rawValue ?? "issue")\(place)</span></li>"
        }
        return "<h2>Failures: \(issues.count)</h2><ul class=\"failures\">\(items)</ul>"
    }

    static func activities(_ activities: [TestDetail.ActivityDetail]) -> HTML {
        guard !activities.isEmpty else { return "" }
        func tree(_ activities: [TestDetail.ActivityDetail]) -> HTML {
            let items = activities.map { activity -> HTML in
                let failed = activity.outcome?.isFailure == true
                let mark: HTML = failed ? "<span class=\"ko\">✘</span>" : "<span class=\"ok\">✔</span>"
                let time = activity.duration.map(Figures.seconds) ?? "unfinished"
                let children = activity.children.isEmpty ? "" : tree(activity.children)
                return "<li>\(mark) \(activity.name) <span class=\"muted\">(\(time))</span>\(children)</li>"
            }
            return "<ul class=\"tree\">\(items)</ul>"
        }
        return "<h2>Activities</h2>\(tree(activities))"
    }

    static func captures(_ captures: [LedgerEvent.Capture], in detail: TestDetail) -> HTML {
        guard !captures.isEmpty else { return "" }
        let rows = captures.map { capture -> HTML in
            """
            <tr><td>\(capture.verifier)</td><td>\(detail.activityName(capture.activity) ?? "")</td>\
            <td>\(fields(capture.fields))</td></tr>
            """
        }
        return """
            <h2>Captures: \(captures.count)</h2>
            <table class="captures"><thead><tr><th>verifier</th><th>in activity</th><th>fields</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    static func attachments(_ attachments: [LedgerEvent.Attachment], in detail: TestDetail) -> HTML {
        guard !attachments.isEmpty else { return "" }
        let rows = attachments.map { attachment -> HTML in
            """
            <tr><td>\(attachment.name)</td><td>\(attachment.mediaType ?? "")</td>\
            <td class="n">\(attachment.size.map(Figures.bytes) ?? "")</td>\
            <td>\(detail.activityName(attachment.activity) ?? "")</td><td><code>\(attachment.path ?? "")</code></td></tr>
            """
        }
        return """
            <h2>Attachments: \(attachments.count)</h2>
            <table class="attachments"><thead><tr><th>name</th><th>type</th><th class="n">size</th>\
            <th>in activity</th><th>saved at</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    /// An object's fields one per line, strings as they are; anything else as JSON.
    static func fields(_ value: JSONValue?) -> HTML {
        guard let value else { return "" }
        guard case .object(let members) = value else { return "<pre>\(value.jsonText)</pre>" }
        let lines = members.keys.sorted().map { key -> String in
            guard case .string(let text) = members[key] else { return "\(key): \(members[key]?.jsonText ?? "null")" }
            return "\(key): \(text)"
        }
        return "<pre>\(lines.joined(separator: "\n"))</pre>"
    }

    static func predicates(_ predicates: [LedgerEvent.Predicate], in detail: TestDetail) -> HTML {
        guard !predicates.isEmpty else { return "" }
        let rows = predicates.map { predicate -> HTML in
            let verdict: HTML =
                predicate.held ? "<span class=\"ok\">held</span>" : "<span class=\"ko\">timed out</span>"
            let margin = predicate.timeout > 0 ? predicate.waited / predicate.timeout : 1
            return """
                <tr><td>\(predicate.name)</td><td>\(predicate.expect.rawValue)</td><td>\(verdict)</td>\
                <td class="n">\(predicate.attempts)</td><td class="n">\(Figures.seconds(predicate.waited))</td>\
                <td class="n">\(Figures.seconds(predicate.timeout))</td><td class="n">\(Figures.percent(margin))</td>\
                <td>\(detail.activityName(predicate.activity) ?? "")</td></tr>
                """
        }
        return """
            <h2>Predicates: \(predicates.count)</h2>
            <table class="predicates"><thead><tr><th>predicate</th><th>expect</th><th>verdict</th>\
            <th class="n">attempts</th><th class="n">waited</th><th class="n">timeout</th><th class="n">margin</th>\
            <th>in activity</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
