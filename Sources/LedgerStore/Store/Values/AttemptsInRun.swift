import Foundation
import LedgerCore

/// A test's attempts in one run: one cell of an outcome strip, one line of a test's history.
public struct AttemptsInRun: Codable, Hashable, Sendable {
    /// The run's id.
    public var run: String
    /// When the run started, seconds since 1970.
    public var startedAt: Double
    /// The revision the run tested, when known.
    public var revision: String?
    /// The destination, OS or device the run used; empty when none was named.
    public var configuration: String
    /// Every attempt in order; `nil` for one still running (in a run that has not ended). Empty when
    /// the run did not have the test.
    public var attempts: [Outcome?]
    /// Seconds spent, all attempts together.
    public var seconds: Double
    /// What the run was for when not a run of the suite (`verification`); `nil` (left out) for one.
    public var kind: RunKind?
    /// The test's verdict in a verification run (`fixed`, `still-flaky`…), when it has one.
    public var verdict: String?

    /// Creates a cell.
    ///
    /// - Parameters:
    ///   - run: the run's id.
    ///   - startedAt: when the run started, in seconds since 1970.
    ///   - revision: the revision the run tested, when known.
    ///   - configuration: the run's configuration; empty when none was named.
    ///   - attempts: every attempt in order, `nil` for one still running.
    ///   - seconds: seconds spent, all attempts together.
    public init(
        run: String, startedAt: Double, revision: String? = nil, configuration: String = "", attempts: [Outcome?],
        seconds: Double = 0
    ) {
        self.run = run
        self.startedAt = startedAt
        self.revision = revision
        self.configuration = configuration
        self.attempts = attempts
        self.seconds = seconds
    }

    /// The final attempt's outcome; `nil` when the test did not run or is still running.
    public var final: Outcome? { attempts.last ?? nil }
    /// Failed at least once, and the final attempt passed.
    public var passedOnRetry: Bool {
        final?.isPass == true && attempts.dropLast().contains { $0?.isFailure == true }
    }
}

extension AttemptsInRun {
    /// Each test's attempts in each run, oldest run first, from the attempts' rows in attempt order:
    /// a run without the test is there with no attempts, so that strips of several tests line up.
    package static func strips(
        tests: [String], runs: [WindowRun], attempts: [(test: String, run: Int64, outcome: String?, seconds: Double)]
    ) -> [String: [AttemptsInRun]] {
        var byTestAndRun: [String: [Int64: (outcomes: [Outcome?], seconds: Double)]] = [:]
        for attempt in attempts {
            let outcome = attempt.outcome.flatMap(Outcome.init(rawValue:))
            byTestAndRun[attempt.test, default: [:]][attempt.run, default: ([], 0)].outcomes.append(outcome)
            byTestAndRun[attempt.test, default: [:]][attempt.run, default: ([], 0)].seconds += attempt.seconds
        }
        return Dictionary(
            tests.map { test in
                let found = byTestAndRun[test] ?? [:]
                return (
                    test,
                    runs.map { run in
                        AttemptsInRun(
                            run: run.id, startedAt: run.startedAt, revision: run.revision,
                            configuration: run.configuration, attempts: found[run.row]?.outcomes ?? [],
                            seconds: found[run.row]?.seconds ?? 0)
                    }
                )
            }, uniquingKeysWith: { first, _ in first })
    }

    /// One attempt's row of a test's history: its run's columns and its own.
    package struct HistoryRow {
        package var run: String
        package var startedAt: Double
        package var revision: String?
        package var configuration: String
        package var kind: String?
        package var labels: String?
        package var outcome: String?
        package var seconds: Double

        package init(
            run: String, startedAt: Double, revision: String?, configuration: String, kind: String?, labels: String?,
            outcome: String?, seconds: Double
        ) {
            (self.run, self.startedAt, self.revision, self.configuration) = (run, startedAt, revision, configuration)
            (self.kind, self.labels, self.outcome, self.seconds) = (kind, labels, outcome, seconds)
        }
    }

    /// A test's history, newest run first, from its attempts' rows in that order; a verification
    /// run carries its kind and the test's verdict there.
    package static func history(of test: String, _ rows: [HistoryRow]) -> [AttemptsInRun] {
        var history: [AttemptsInRun] = []
        for row in rows {
            if history.last?.run != row.run {
                var cell = AttemptsInRun(
                    run: row.run, startedAt: row.startedAt, revision: row.revision, configuration: row.configuration,
                    attempts: [])
                cell.kind = row.kind.flatMap(RunKind.init(rawValue:))
                if cell.kind != nil, let labels = row.labels,
                    case .object(let fields)? = JSONValue(jsonText: labels),
                    case .string(let verdict)? = fields[VerificationReport.verdictLabel(of: test)]
                {
                    cell.verdict = verdict
                }
                history.append(cell)
            }
            history[history.count - 1].attempts.append(row.outcome.flatMap(Outcome.init(rawValue:)))
            history[history.count - 1].seconds += row.seconds
        }
        return history
    }
}
