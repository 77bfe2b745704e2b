import Foundation
import LedgerCore

/// Keeps a run's one comment on a pull or merge request current: created the first time,
/// edited in place afterwards (found by ``ReviewComment/marker(project:configuration:)``).
package enum ReviewComments {
    /// What became of the comment, in words for the job's log.
    ///
    /// - Parameters:
    ///   - report: the run's report.
    ///   - thread: the request's comments.
    ///   - ifFailed: post only when something failed; a passing run's earlier comment becomes one line.
    ///   - jobFailed: whether the job failed whatever the report says (no results, a build error).
    ///   - dashboard: the server's address, to link the run and its tests.
    /// - Returns: one line saying whether the comment was created, edited, left as it was, or not
    ///   posted.
    /// - Throws: ``CodeHostError`` when the request's comments cannot be read, created or edited.
    package static func keep(
        _ report: RunReport, in thread: some CommentThread, ifFailed: Bool, jobFailed: Bool = false, dashboard: URL?
    ) throws(CodeHostError) -> String {
        let marker = ReviewComment.marker(project: report.project, configuration: report.configuration)
        let earlier = try thread.comments().first { ReviewComment.isMarked($0.body, by: marker) }
        let body: String
        if ifFailed && report.failures.isEmpty && !jobFailed && report.tests > 0 {
            guard let earlier else { return "no failures: no comment on \(thread.name)" }
            body = ReviewComment.passing(report, dashboard: dashboard)
            if earlier.body == body { return "no failures: the comment on \(thread.name) says so already" }
            try thread.edit(id: earlier.id, body)
            return "no failures: the comment on \(thread.name) now says so in one line"
        }
        body = ReviewComment.body(report, dashboard: dashboard)
        guard let earlier else {
            try thread.create(body)
            return "commented on \(thread.name)"
        }
        if earlier.body == body { return "the comment on \(thread.name) is up to date" }
        try thread.edit(id: earlier.id, body)
        return "updated the comment on \(thread.name)"
    }
}
