/// `testledger show` as text for a terminal.
public enum TestDetailRendering {
    public static func text(_ detail: TestDetail) -> String {
        var lines = [
            "\(detail.test)",
            "  \(detail.outcome) in \(detail.duration.map(Figures.seconds) ?? "–"), run \(detail.run) at \(detail.startedAt)"
                + (detail.attempts.count > 1 ? " (attempts: \(detail.attempts.joined(separator: ", ")))" : ""),
        ]
        if let place = Figures.place(detail.file, detail.line) { lines.append("  at \(place)") }
        if let layer = detail.layer { lines.append("  layer: \(layer.rawValue)") }
        if !detail.issues.isEmpty {
            lines.append("Failures:")
            for issue in detail.issues {
                let place = Figures.place(issue.file, issue.line).map { " (\($0))" } ?? ""
                lines.append("  - \(issue.message)\(place)")
            }
        }
        if !detail.activities.isEmpty {
            lines.append("Activities:")
            func add(_ activity: TestDetail.ActivityDetail, depth: Int) {
                let mark = activity.outcome == "failed" ? "✘" : "✔"
                let time = activity.duration.map(Figures.seconds) ?? "unfinished"
                lines.append(String(repeating: "  ", count: depth + 1) + "\(mark) \(activity.name) (\(time))")
                for child in activity.children { add(child, depth: depth + 1) }
            }
            for activity in detail.activities { add(activity, depth: 0) }
        }
        if !detail.captures.isEmpty {
            lines.append("Captures:")
            for capture in detail.captures {
                let inside = capture.activity.map { " in \"\($0)\"" } ?? ""
                lines.append("  \(capture.verifier)\(inside): \(capture.fields?.jsonText ?? "{}")")
            }
        }
        if !detail.predicates.isEmpty {
            lines.append("Predicates:")
            for predicate in detail.predicates {
                let verdict = predicate.held ? "held" : "TIMED OUT"
                lines.append(
                    "  \(predicate.name) (\(predicate.expect.rawValue)): \(verdict) after \(predicate.attempts) "
                        + "attempt(s), waited \(Figures.seconds(predicate.waited)) of \(Figures.seconds(predicate.timeout))"
                )
            }
        }
        return lines.joined(separator: "\n")
    }
}
