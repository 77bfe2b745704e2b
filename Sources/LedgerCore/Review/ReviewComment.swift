import Foundation

/// The one pull-request (or merge-request) comment a run's report is kept in: `report run`'s
/// Markdown, why each known flaky test fails, and a link to the run on the dashboard; found again
/// by a hidden marker, so that later runs edit it instead of adding another.
public enum ReviewComment {
    /// GitHub's limit on a comment's length; a body is kept to this many UTF-8 bytes, which is
    /// never more characters.
    public static let limit = 65_536

    /// The hidden first line naming whose comment it is: one per project and configuration, so
    /// that jobs recording different configurations keep a comment each.
    public static func marker(project: String, configuration: String) -> String {
        "<!-- testledger-comment: \(hidden(project)) \(hidden(configuration)) -->"
    }

    /// Whether `body` is the comment `marker` names: its first line, also after an edit on the web
    /// turned its line ends into CRLF.
    public static func isMarked(_ body: String, by marker: String) -> Bool {
        guard body.hasPrefix(marker) else { return false }
        let rest = body.utf8.dropFirst(marker.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "\n") || rest.first == UInt8(ascii: "\r")
    }

    /// The comment for `report`, at most `limit` bytes whatever the run: fewer failures listed (the
    /// counts and the shared causes still cover them all), then cut at a line.
    ///
    /// - Parameters:
    ///   - report: the run's report.
    ///   - dashboard: the server's address, to link the run and its tests.
    ///   - limit: the most UTF-8 bytes the body may have.
    /// - Returns: the comment's Markdown, its first line the marker of the run's project and
    ///   configuration.
    public static func body(_ report: RunReport, dashboard: URL?, limit: Int = limit) -> String {
        let head = marker(project: report.project, configuration: report.configuration)
        var text = ""
        for rows in [RunReportRendering.listed, 10, 3] {
            text =
                [head, RunReportRendering.markdown(report, dashboard: dashboard, rows: rows)]
                .joined(separator: "\n") + culprits(report, rows: rows) + runLink(report, dashboard: dashboard)
            if text.utf8.count <= limit { return text }
        }
        return cut(
            text, limit: limit, note: "\n\n… cut to fit a comment; `testledger report run \(report.run)` has it all.")
    }

    /// The comment a passing run leaves in place of a failing run's: one line.
    public static func passing(_ report: RunReport, dashboard: URL?) -> String {
        marker(project: report.project, configuration: report.configuration) + "\n"
            + RunReportRendering.heading(report)
            + (dashboard.map { " ([run](\(runAddress(report, dashboard: $0))))" } ?? "")
    }

    /// Why each listed known flaky test fails, from its culprit report.
    static func culprits(_ report: RunReport, rows: Int) -> String {
        let explained = report.failures.prefix(rows).compactMap { failure -> String? in
            guard failure.verdict == .knownFlaky, let suspect = failure.culprit?.suspect else { return nil }
            return "- " + RunReportRendering.code(String(failure.test.prefix(300))) + ": likely "
                + RunReportRendering.code(suspect.name) + " (\(suspect.kind.rawValue)): "
                + TextTable.escapeMarkdown(String(suspect.evidence.prefix(500)))
        }
        guard !explained.isEmpty else { return "" }
        return "\n\n**Why the known flaky tests fail**\n\n" + explained.joined(separator: "\n")
    }

    static func runLink(_ report: RunReport, dashboard: URL?) -> String {
        dashboard.map { "\n\n[The run on the dashboard](\(runAddress(report, dashboard: $0)))" } ?? ""
    }

    static func runAddress(_ report: RunReport, dashboard: URL) -> String {
        RunReportRendering.address(dashboard, ["projects", report.project, "runs", report.run])
    }

    /// `text`'s whole lines that fit in `limit` bytes with `note` after them; a first line too
    /// long for it is cut at a character.
    static func cut(_ text: String, limit: Int, note: String) -> String {
        let room = limit - note.utf8.count
        var kept = ""
        var size = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let added = (kept.isEmpty ? 0 : 1) + line.utf8.count
            guard size + added <= room else {
                if kept.isEmpty {
                    var width = 0
                    for scalar in line.unicodeScalars {
                        width += scalar.utf8.count
                        guard width <= room else { break }
                        kept.unicodeScalars.append(scalar)
                    }
                }
                break
            }
            kept += (kept.isEmpty ? "" : "\n") + line
            size += added
        }
        return kept + note
    }

    /// Text that cannot end the HTML comment it is put in, nor run into the next field: percent-encoded
    /// but for letters, digits and `._/@+:`.
    static func hidden(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: markerCharacters) ?? ""
    }

    private static let markerCharacters = CharacterSet.alphanumerics.intersection(
        CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127))
    ).union(CharacterSet(charactersIn: "._/@+:"))
}
