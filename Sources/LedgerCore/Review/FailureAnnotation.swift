import Foundation

/// A run's failure marked on its line of the diff: a GitHub workflow command or a check run's
/// annotation.
public struct FailureAnnotation: Hashable, Sendable {
    /// How loud it is, by what the failure means.
    public enum Level: String, Hashable, Sendable, CaseIterable {
        /// New, failed before, or failing on the base branch too: a failure to look at.
        case error
        /// Known flaky.
        case warning
        /// Quarantined: muted where tests run.
        case notice

        /// The check-runs API's name for it.
        public var checkRunLevel: String { self == .error ? "failure" : rawValue }
    }

    public var level: Level
    /// The file, from the repository's root.
    public var path: String
    public var line: Int
    public var title: String
    public var message: String
    /// The failing test's id.
    public var test: String

    /// At most this many characters of a message: a backtrace is for the job's log.
    public static let messageLength = 4000

    /// The failures of `report` that have a place, most useful first (the report's order: new,
    /// failed before, failing on the base too, known flaky, quarantined), and how many have none.
    ///
    /// - Parameters:
    ///   - report: the run's report.
    ///   - paths: places a recorded file in the repository.
    public static func of(_ report: RunReport, paths: RepositoryPaths) -> (placed: [FailureAnnotation], unplaced: Int) {
        var placed: [FailureAnnotation] = []
        var unplaced = 0
        for failure in report.failures {
            guard let file = failure.file, let path = paths.path(file), !path.isEmpty else {
                unplaced += 1
                continue
            }
            let message = [failure.message?.trimmingCharacters(in: .whitespacesAndNewlines), failure.evidence]
                .compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "\n")
            placed.append(
                FailureAnnotation(
                    level: level(failure.verdict), path: path, line: max(failure.line ?? 1, 1),
                    title: title(failure, base: report.comparedWith.branch),
                    message: String(message.prefix(messageLength)), test: failure.test))
        }
        return (placed, unplaced)
    }

    static func level(_ verdict: RunReport.Verdict) -> Level {
        switch verdict {
        case .new, .failedBefore, .failingOnBase: .error
        case .knownFlaky: .warning
        case .quarantined: .notice
        }
    }

    /// `New failure: App.Tests/testLogin()`, `Failing on main too: …`.
    static func title(_ failure: RunReport.Failure, base: String?) -> String {
        let kind =
            switch failure.verdict {
            case .new: "New failure"
            case .failedBefore: "Failed before"
            case .failingOnBase: base.map { "Failing on \($0) too" } ?? "Failing in the run before too"
            case .knownFlaky: "Known flaky"
            case .quarantined: failure.quarantined == .skip ? "Quarantined" : "Muted"
            }
        return "\(kind): \(String(failure.test.prefix(200)))"
    }
}
