import Foundation
import LedgerCore

/// One line of `testledger runs`: a run with its counts by final outcome.
public struct RunListing: Codable, Hashable, Sendable {
    /// The run's id (its UUID).
    public var id: String
    /// The project the run belongs to.
    public var project: String
    /// What produced the run, such as `xctest`, `swift-testing`, `junit` or `tap`.
    public var source: String
    /// When the run started (ISO 8601).
    public var startedAt: String
    /// When the run ended (ISO 8601); `nil` while it has no end.
    public var endedAt: String?
    /// The outcome its `run.end` gave, `finished` when it gave none, or `interrupted` when the run
    /// has no end (also while it is still going on) or was ended as interrupted.
    public var status: RunOutcome
    /// The revision the run tested, when known.
    public var revision: String?
    /// The branch the run tested, when known.
    public var branch: String?
    /// The CI build the run belongs to, when known.
    public var build: String?
    /// The destination, OS or device the run used; empty when none was named.
    public var configuration: String
    /// Distinct tests; outcomes below are final outcomes (after retries).
    public var tests: Int
    /// Tests whose final attempt passed or failed as expected.
    public var passed: Int
    /// Tests whose final attempt failed or ended in an error.
    public var failed: Int
    /// Tests whose final attempt was skipped.
    public var skipped: Int
    /// Tests whose final attempt crashed or has no outcome, even in a run that is still going on.
    public var crashed: Int
    /// Tests that failed and then passed on retry within the run.
    public var flaky: Int
    /// Tests whose final attempt failed or crashed while they were muted: the build did not fail for them.
    public var muted: Int
    /// The runner's own totals, when its output named only some of its tests; `nil` otherwise.
    public var reported: LedgerEvent.RunnerCounts?
    /// What the run was for when it was not a run of the suite: `verification` for `testledger
    /// verify`'s runs, which reports leave out; `nil` (left out) for a run of the suite.
    public var kind: RunKind?
    /// The free-form labels its `run.start` carried, such as `testledger.carries-fixes`, which
    /// `upload` adds; `nil` (left out) for none.
    public var labels: [String: String]?
    /// Wall time of the run in seconds when it ended, else the sum of its tests' durations.
    public var duration: Double

    /// A verification run's verdicts, by test, from its labels.
    public var verdicts: [(test: String, verdict: String)] {
        let prefix = VerificationReport.verdictLabelPrefix
        return (labels ?? [:]).filter { $0.key.hasPrefix(prefix) }.map {
            (String($0.key.dropFirst(prefix.count)), $0.value)
        }
        .sorted { $0.test < $1.test }
    }

    /// What the run was for, in words, when not a run of the suite: `verification of App.Cart/total:
    /// fixed`.
    public var purpose: String? {
        guard let kind else { return nil }
        let verdicts = self.verdicts.map { "\($0.test): \($0.verdict)" }.joined(separator: ", ")
        return verdicts.isEmpty ? kind.rawValue : "\(kind.rawValue) of \(verdicts)"
    }
}
