import Foundation
import GRDB
import LedgerCore

/// A test's attempts in one run: one cell of an outcome strip, one line of a test's history.
public struct AttemptsInRun: Hashable, Sendable {
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

extension LedgerDatabase {
    /// Each test's attempts in each of the newest `runs` runs of a project (started since `since`),
    /// oldest run first; a run without the test is there with no attempts, so that strips of
    /// several tests line up.
    /// - Parameters:
    ///   - project: the project the runs and tests belong to.
    ///   - tests: the stable ids of the tests.
    ///   - count: how many of the newest runs; a negative number means all.
    ///   - since: only runs started since then, in seconds since 1970; `nil` for no bound.
    /// - Returns: for each test, one entry per run, oldest first; empty when there are no tests or
    ///   no runs.
    /// - Throws: any SQLite error.
    public func outcomeStrips(
        project: String, tests: [String], runs count: Int, since: Double? = nil
    ) throws -> [String: [AttemptsInRun]] {
        let runs = try windowRuns(project: project, count: count, since: since).reversed()
        guard !tests.isEmpty, !runs.isEmpty else { return [:] }
        let attempts = try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.key, r.runId, \(Self.attemptOutcome(result: "r", run: "run")), coalesce(r.duration, 0)
                    FROM test t JOIN result r ON r.testId = t.id JOIN run ON run.id = r.runId
                    WHERE t.project = ?1 AND t.key IN (SELECT value FROM json_each(?2))
                        AND r.runId IN (SELECT value FROM json_each(?3))
                    ORDER BY r.attempt
                    """,
                arguments: [project, Self.jsonArray(tests), Self.jsonArray(runs.map(\.row))]
            )
        }
        return AttemptsInRun.strips(
            tests: tests, runs: Array(runs),
            attempts: attempts.map { (test: $0[0], run: $0[1], outcome: $0[2], seconds: $0[3]) })
    }

    /// The newest `limit` runs of a project that have the test, newest first.
    /// - Parameters:
    ///   - project: the project the runs and test belong to.
    ///   - test: the test's stable id.
    ///   - limit: how many runs at most; a negative number means all.
    /// - Returns: the test's attempts in each of those runs.
    /// - Throws: any SQLite error.
    public func outcomeHistory(project: String, test: String, limit: Int) throws -> [AttemptsInRun] {
        try writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH chosen AS (
                        SELECT run.id, run.uuid, run.startedAt, run.endedAt, run.revision, run.configuration,
                            t.id AS testId
                        FROM test t JOIN run ON run.project = t.project
                        WHERE t.project = ?1 AND t.key = ?2
                            AND EXISTS (SELECT 1 FROM result WHERE runId = run.id AND testId = t.id)
                        ORDER BY run.startedAt DESC, run.id DESC LIMIT ?3)
                    SELECT chosen.uuid, chosen.startedAt, chosen.revision, chosen.configuration,
                        \(Self.attemptOutcome(result: "r", run: "chosen")),
                        coalesce(r.duration, 0)
                    FROM chosen JOIN result r ON r.runId = chosen.id AND r.testId = chosen.testId
                    ORDER BY chosen.startedAt DESC, chosen.id, r.attempt
                    """, arguments: [project, test, limit])
            return AttemptsInRun.history(
                rows.map {
                    (
                        run: $0[0], startedAt: $0[1], revision: $0[2], configuration: $0[3], outcome: $0[4],
                        seconds: $0[5]
                    )
                })
        }
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

    /// A test's history, newest run first, from its attempts' rows in that order.
    package static func history(
        _ rows: [(
            run: String, startedAt: Double, revision: String?, configuration: String, outcome: String?,
            seconds: Double
        )]
    ) -> [AttemptsInRun] {
        var history: [AttemptsInRun] = []
        for row in rows {
            if history.last?.run != row.run {
                history.append(
                    AttemptsInRun(
                        run: row.run, startedAt: row.startedAt, revision: row.revision,
                        configuration: row.configuration, attempts: []))
            }
            history[history.count - 1].attempts.append(row.outcome.flatMap(Outcome.init(rawValue:)))
            history[history.count - 1].seconds += row.seconds
        }
        return history
    }
}
