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
    /// The line; `nil` marks the file as a whole.
    public var line: Int?
    public var title: String
    public var message: String
    /// The failing test's id.
    public var test: String

    /// At most this many characters of a message: a backtrace is for the job's log.
    public static let messageLength = 4000
    /// GitHub's limit on an annotation's title.
    public static let titleLength = 255

    /// The failures of `report` that have a place in the repository, most useful first (the
    /// report's order: new, failed before, failing on the base too, known flaky, quarantined), and
    /// how many have none. A failure whose issue is in a file not the repository's is marked where
    /// its test is declared.
    ///
    /// - Parameters:
    ///   - report: the run's report.
    ///   - place: a recorded file's path from the repository's root; `nil` when it is not there.
    /// - Returns: the annotations, in the report's order, and the number of failures with no place.
    public static func of(_ report: RunReport, place: (String) -> String?) -> (
        placed: [FailureAnnotation], unplaced: Int
    ) {
        var placed: [FailureAnnotation] = []
        var unplaced = 0
        for failure in report.failures {
            let recorded = failure.file.map { [RunReport.Place(file: $0, line: failure.line)] } ?? []
            var found: (path: String, line: Int?)?
            for spot in recorded + (failure.declared.map { [$0] } ?? []) where found == nil {
                if let path = place(spot.file), !path.isEmpty { found = (path, spot.line) }
            }
            guard let (path, spotLine) = found else {
                unplaced += 1
                continue
            }
            let message = [failure.message?.trimmingCharacters(in: .whitespacesAndNewlines), failure.evidence]
                .compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "\n")
            placed.append(
                FailureAnnotation(
                    level: level(failure.verdict), path: path, line: spotLine.map { max($0, 1) },
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
        return String("\(kind): \(failure.test)".prefix(titleLength))
    }
}
