import Foundation

/// What a check run named "TestLedger" says of a run: its conclusion, title and summary, and the
/// failures as annotations, sent at most ``batch`` per request as the check-runs API allows.
public struct CheckRunOutput: Hashable, Sendable {
    /// The check's name on the pull request.
    public static let name = "TestLedger"
    /// The most annotations one request may carry.
    public static let batch = 50
    /// The most annotations sent in all: the rest are counted in the summary.
    public static let most = 1000
    /// The API's limit on a summary's length.
    public static let summaryLimit = 65_535

    /// `success` when every failure is quarantined (a test that passed on a retry is no failure);
    /// `failure` when another failed or the job did; `neutral` for a run with no results.
    public var conclusion: String
    public var title: String
    public var summary: String
    /// The annotations, in requests of at most ``batch``.
    public var batches: [[FailureAnnotation]]

    /// - Parameters:
    ///   - report: the run's report.
    ///   - annotations: its placed failures, most useful first.
    ///   - unplaced: its failures with no place.
    ///   - jobFailed: whether the job failed whatever the report says (a build error, a crash).
    ///   - dashboard: the server's address, to link the run and its tests.
    public init(
        _ report: RunReport, annotations: [FailureAnnotation], unplaced: Int, jobFailed: Bool = false,
        dashboard: URL?
    ) {
        if jobFailed || !report.failures.allSatisfy({ $0.verdict == .quarantined }) {
            conclusion = "failure"
        } else {
            conclusion = report.tests == 0 ? "neutral" : "success"
        }
        title = String(RunReportRendering.headline(report).prefix(250))
        let sent = Array(annotations.prefix(Self.most))
        var summary = RunReportRendering.markdown(report, dashboard: dashboard)
        let untold = annotations.count - sent.count + unplaced
        if untold > 0 {
            summary +=
                "\n\n\(sent.count) of \(annotations.count + unplaced) failure(s) annotated; "
                + "\(untold) not: no file recorded, or beyond the \(Self.most) sent."
        }
        self.summary =
            summary.utf8.count <= Self.summaryLimit
            ? summary : ReviewComment.cut(summary, limit: Self.summaryLimit, note: "\n\n… cut to fit a check run")
        batches = stride(from: 0, to: sent.count, by: Self.batch).map {
            Array(sent[$0..<min($0 + Self.batch, sent.count)])
        }
    }
}
