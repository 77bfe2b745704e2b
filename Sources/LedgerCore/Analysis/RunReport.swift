import Foundation

/// What `report run` says of one run: each failure classified, with its evidence, against the base
/// branch (or, when it has no runs, the project's earlier runs), the flaky report and the
/// quarantine; and the tests the run fixed.
public struct RunReport: Codable, Hashable, Sendable {
    /// What a failure most likely means, most useful to a developer first.
    public enum Verdict: String, Codable, Hashable, Sendable, CaseIterable {
        /// Never failed in the compared runs before: most likely this change's.
        case new
        /// Failed in the compared runs before, though not in the newest; or broken by `report flaky`
        /// and passed by the newest compared run.
        case failedBefore = "failed-before"
        /// The newest compared run failed it too: not this change's.
        case failingOnBase = "failing-on-base"
        /// Flaky by `report flaky`, whatever the newest compared run did.
        case knownFlaky = "known-flaky"
        /// Quarantined: muted or skipped where tests run.
        case quarantined
    }

    /// One failing test of the run and why it is classed so.
    public struct Failure: Codable, Hashable, Sendable {
        public var test: String
        public var configuration: String
        public var verdict: Verdict
        /// The failure's message, when the runner gave one.
        public var message: String?
        /// The evidence behind the verdict, in words.
        public var evidence: String
        /// The flaky score, for a known flaky test.
        public var score: Double?
        /// The test's outcomes over the flaky report's window, for a known flaky test.
        public var strip: String?
        /// How it is quarantined, for a quarantined test.
        public var quarantined: QuarantineMode?
        /// Who owns it, when the project names owners.
        public var owners: [String]? = nil
        /// For a known flaky test: why it fails, over the runs up to this one.
        public var culprit: CulpritReport.Brief? = nil
        /// Its fix `verify` recorded, while it is followed: pending, landed or regressed.
        public var fix: RecordedFix.Brief? = nil
        /// Where it failed, as the run recorded it: its first issue's file, else the test's.
        public var file: String? = nil
        /// The line in ``file``, when known.
        public var line: Int? = nil
        /// Where the test is declared, when that is not ``file``: a place to mark when the issue's
        /// file is not the repository's (a runtime's, a library's). Not in the JSON.
        public var declared: Place? = nil

        enum CodingKeys: String, CodingKey {
            case test, configuration, verdict, message, evidence, score, strip, quarantined, owners, culprit, file,
                line, fix
        }
    }

    /// A file and line a run recorded.
    public struct Place: Hashable, Sendable {
        public var file: String
        public var line: Int?

        public init(file: String, line: Int?) {
            self.file = file
            self.line = line
        }
    }

    /// A failing test of the run, as the store gives it.
    public struct Failing: Hashable, Sendable {
        public var test: String
        public var message: String?
        /// Where it failed: its first issue's file and line, else the test's declaration.
        public var file: String?
        public var line: Int?
        /// Where the test is declared, when the failure's place is an issue's.
        public var declared: Place?

        public init(test: String, message: String?, file: String? = nil, line: Int? = nil, declared: Place? = nil) {
            self.test = test
            self.message = message
            self.file = file
            self.line = line
            self.declared = declared
        }
    }

    /// The run's id.
    public var run: String
    public var project: String
    public var branch: String?
    public var revision: String?
    public var configuration: String
    /// The base branch the failures are judged against.
    public var base: String
    /// The newest compared run before this one, when there is one.
    public var baseRun: String?
    /// The runs the failures were compared with: the base branch's, or the project's earlier runs
    /// when the base branch has none.
    public var comparedWith: Comparison
    /// Tests with results in the run.
    public var tests: Int
    /// The failures, most useful first: by ``Verdict``, then by test id.
    public var failures: [Failure]
    /// Tests the newest compared run failed that pass here.
    public var fixed: [String]
    /// The failures grouped by cause (``FailureGrouping``), the largest first.
    public var groups: [FailureGroup] = []
    /// The tests selection left out as not affected by the change, when it left any out.
    public var notAffected: NotAffected? = nil

    /// The tests a run left out because their code did not change since a run that vouches for it.
    public struct NotAffected: Codable, Hashable, Sendable {
        /// The message a test left out so is stored with, as skipped.
        public static let reason = "not-affected"
        /// How many tests were left out.
        public var tests: Int
        /// The runs that vouched for their targets, newest first.
        public var vouchedBy: [Vouch]

        public init(tests: Int, vouchedBy: [Vouch]) {
            (self.tests, self.vouchedBy) = (tests, vouchedBy)
        }

        /// `312 tests not run: their code did not change since run 8f3… (1a2b3c4)`.
        public var sentence: String {
            let runs = vouchedBy.map(\.label)
            let since =
                runs.isEmpty
                ? ""
                : ": their code did not change since run\(runs.count > 1 ? "s" : "") "
                    + runs.joined(separator: ", ")
            return "\(tests) test\(tests == 1 ? "" : "s") not run" + since
        }
    }

    /// How many failures have each verdict.
    public var counts: [Verdict: Int] { Dictionary(grouping: failures, by: \.verdict).mapValues(\.count) }

    /// Classifies the failures of a run. A failure gets the first verdict that holds, in the order
    /// quarantined, known flaky, failing on the base branch too, failed before, new: each answers
    /// "is it this change's fault?" with stronger evidence than the next. A test `report flaky`
    /// calls flaky is known flaky even when the newest compared run failed it (its evidence says
    /// so); one it calls broken fails on the base too, or failed before when the newest compared run
    /// did not fail it, and is never new.
    ///
    /// - Parameters:
    ///   - run: the run's id, project, branch, revision and configuration.
    ///   - tests: tests with results in the run.
    ///   - failing: the tests whose final attempt failed, erred or crashed.
    ///   - passed: the tests whose final attempt passed.
    ///   - base: the requested base branch's name and the compared runs' history before this run.
    ///   - flaky: `report flaky`'s flaky tests over the runs before this one.
    ///   - broken: `report flaky`'s broken tests over the runs before this one.
    ///   - quarantine: the quarantine in force.
    /// - Returns: the report, its failures most useful first.
    public static func classify(
        run: (id: String, project: String, branch: String?, revision: String?, configuration: String), tests: Int,
        failing: [Failing], passed: Set<String>, base: (name: String, history: BaseHistory),
        flaky: [FlakyReport.FlakyTest], broken: [FlakyReport.BrokenTest] = [], quarantine: [QuarantinedTest]
    ) -> RunReport {
        let flakyByTest = Dictionary(
            flaky.filter { $0.configuration == run.configuration }.map { ($0.test, $0) },
            uniquingKeysWith: { a, _ in a })
        let brokenByTest = Dictionary(
            broken.filter { $0.configuration == run.configuration }.map { ($0.test, $0) },
            uniquingKeysWith: { a, _ in a })
        let history = base.history
        let failures = failing.map { failure -> Failure in
            let onNewest = history.newestFailed.contains(failure.test)
            var classed = Failure(
                test: failure.test, configuration: run.configuration, verdict: .new, message: failure.message,
                evidence: history.neverFailed, file: failure.file, line: failure.line, declared: failure.declared)
            if let entry = quarantine.first(where: { $0.test == failure.test && $0.applies(to: run.configuration) }) {
                classed.verdict = .quarantined
                classed.quarantined = entry.mode
                classed.evidence =
                    "\(entry.mode == .mute ? "muted" : "skipped") since \(iso8601(entry.since)): \(entry.reason)"
            } else if let known = flakyByTest[failure.test] {
                classed.verdict = .knownFlaky
                classed.score = known.score
                classed.strip = known.strip
                classed.evidence =
                    "flaky: failed \(known.failures) of \(known.runs) runs (score \(Figures.decimal(known.score)))"
                    + (onNewest ? "; \(history.newest) failed it too" : "")
            } else if let broken = brokenByTest[failure.test] {
                classed.verdict = onNewest ? .failingOnBase : .failedBefore
                classed.evidence = history.broken(broken, newestFailed: onNewest)
            } else if onNewest {
                classed.verdict = .failingOnBase
                classed.evidence = "\(history.newest) failed it too"
            } else if history.everFailed.contains(failure.test) {
                classed.verdict = .failedBefore
                classed.evidence = history.failedBeforeNotNewest
            }
            return classed
        }
        let order = Dictionary(uniqueKeysWithValues: Verdict.allCases.enumerated().map { ($1, $0) })
        return RunReport(
            run: run.id, project: run.project, branch: run.branch, revision: run.revision,
            configuration: run.configuration, base: base.name, baseRun: history.newestRun,
            comparedWith: history.comparison, tests: tests,
            failures: failures.sorted { (order[$0.verdict] ?? 0, $0.test) < (order[$1.verdict] ?? 0, $1.test) },
            fixed: history.newestFailed.intersection(passed).sorted())
    }
}
