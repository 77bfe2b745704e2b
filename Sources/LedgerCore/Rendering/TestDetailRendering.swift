/// `testledger show` as text for a terminal.
public enum TestDetailRendering {
    /// One test's detail as indented text: its outcome, duration, run and place, then its failures,
    /// activities tree, captures, predicates and attachments, each section only when it has entries.
    ///
    /// - Parameter detail: the test's detail.
    /// - Returns: plain text for a terminal, without a final newline.
    public static func text(_ detail: TestDetail) -> String {
        var lines = [
            "\(detail.test)",
            "  \(detail.outcome) in \(detail.duration.map(Figures.seconds) ?? "–"), run \(detail.run) at \(detail.startedAt)"
                + (detail.attempts.count > 1
                    ? " (\(detail.attempt.map { "attempt \($0) of \(detail.attempts.count)" } ?? "attempts"): "
                        + "\(detail.attempts.map(\.description).joined(separator: ", ")))" : ""),
        ]
        if let place = Figures.place(detail.file, detail.line) { lines.append("  at \(place)") }
        if let layer = detail.layer { lines.append("  layer: \(layer.rawValue)") }
        if let owners = detail.owners, !owners.isEmpty { lines.append("  owners: " + owners.joined(separator: " ")) }
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
                let mark = activity.outcome?.isFailure == true ? "✘" : "✔"
                let time = activity.duration.map(Figures.seconds) ?? "unfinished"
                lines.append(String(repeating: "  ", count: depth + 1) + "\(mark) \(activity.name) (\(time))")
                for child in activity.children { add(child, depth: depth + 1) }
            }
            for activity in detail.activities { add(activity, depth: 0) }
        }
        if !detail.captures.isEmpty {
            lines.append("Captures:")
            for capture in detail.captures {
                let inside = detail.activityName(capture.activity).map { " in \"\($0)\"" } ?? ""
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
        if !detail.attachments.isEmpty {
            lines.append("Attachments:")
            for attachment in detail.attachments {
                let inside = detail.activityName(attachment.activity).map { " in \"\($0)\"" } ?? ""
                let facts = [attachment.mediaType, attachment.size.map(Figures.bytes)].compactMap { $0 }
                lines.append(
                    "  \(attachment.name)\(inside)" + (facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))")
                        + (attachment.path.map { ": \($0)" } ?? ""))
            }
        }
        if let culprit = detail.culprit, culprit.failingAttempts > 0 {
            lines.append("Why it fails (\(culprit.runs) recent runs):")
            lines += CulpritRendering.text(culprit).split(separator: "\n", omittingEmptySubsequences: false)
                .dropFirst().map { $0.isEmpty ? "" : "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
