import Foundation
import GRDB
import LedgerCore

/// A run inside a report's window.
public struct WindowRun: Hashable, Sendable {
    /// The run's row in the store.
    public var row: Int64
    /// The run's id (its UUID).
    public var id: String
    /// When the run started, in seconds since 1970.
    public var startedAt: Double
    /// The revision the run tested, when known.
    public var revision: String?
    /// The destination, OS or device the run used; empty when none was named.
    public var configuration: String
}

/// What the reports need to know of a test besides its results.
public struct TestInfo: Hashable, Sendable {
    /// The test's stable id.
    public var key: String
    /// The test's source file, when known.
    public var file: String?
    /// The layer its producer declared; `nil` leaves it to ``LayerClassifier``.
    public var declaredLayer: Layer?
}

/// One test's attempts in one run, in attempt order.
public struct TestAttempts: Hashable, Sendable {
    /// The test's row in the store; ``LedgerDatabase/testInfo(runs:)`` tells its key.
    public var testID: Int64
    /// Every attempt's outcome; an attempt without one counts as ``Outcome/crashed``.
    public var attempts: [Outcome]
    /// Seconds spent, all attempts together.
    public var seconds: Double
}

/// One run's results, as the reports read them.
public struct RunResults: Sendable {
    /// The run the results belong to.
    public var run: WindowRun
    /// Every test with results in the run, by test row.
    public var tests: [TestAttempts]

    /// Test count and final failures: tells infrastructure noise apart.
    public var health: RunHealth {
        RunHealth(
            run: run.id, at: run.startedAt, tests: tests.count,
            failed: tests.filter { ($0.attempts.last ?? .skipped).isFailure }.count)
    }
}

extension LedgerDatabase {
    /// The newest `count` runs of a project (or those since `since`), newest first.
    /// - Parameters:
    ///   - project: the project whose runs to list.
    ///   - count: how many runs at most; `nil` for all.
    ///   - since: only runs started at or after this time, in seconds since 1970; `nil` for no bound.
    /// - Returns: the runs, newest first.
    /// - Throws: any SQLite error.
    public func windowRuns(project: String, count: Int?, since: Double?) throws -> [WindowRun] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, uuid, startedAt, revision, configuration FROM run
                    WHERE project = ?1 AND (?2 IS NULL OR startedAt >= ?2)
                    ORDER BY startedAt DESC LIMIT coalesce(?3, -1)
                    """, arguments: [project, since, count]
            ).map(WindowRun.init(row:))
        }
    }

    /// The run with this id, when stored.
    /// - Parameters:
    ///   - id: the run's id.
    ///   - project: only a run of this project; any project's when `nil`.
    /// - Returns: the run, or `nil` when none matches.
    /// - Throws: any SQLite error.
    public func windowRun(id: String, project: String? = nil) throws -> WindowRun? {
        try writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT id, uuid, startedAt, revision, configuration FROM run
                    WHERE uuid = ? AND (? IS NULL OR project = ?)
                    """,
                arguments: [id, project, project]
            )
            .map(WindowRun.init(row:))
        }
    }

    /// Every test's attempts in each of the given runs, read in one transaction.
    /// - Parameter runs: the runs to read.
    /// - Returns: one entry per run, in the order given.
    /// - Throws: any SQLite error.
    public func results(of runs: [WindowRun]) throws -> [RunResults] {
        try writer.read { db in
            let statement = try db.makeStatement(
                sql: """
                    SELECT testId, CASE outcome \(Self.outcomeCodes) ELSE \(Self.crashedCode) END,
                        coalesce(duration, 0)
                    FROM result WHERE runId = ? ORDER BY testId, attempt
                    """)
            return try runs.map { run in
                var tests: [TestAttempts] = []
                let cursor = try Row.fetchCursor(statement, arguments: [run.row])
                while let row = try cursor.next() {
                    let testID: Int64 = row[0]
                    let outcome = Self.outcomes[row[1] as Int]
                    let seconds: Double = row[2]
                    if tests.last?.testID == testID {
                        tests[tests.count - 1].attempts.append(outcome)
                        tests[tests.count - 1].seconds += seconds
                    } else {
                        tests.append(TestAttempts(testID: testID, attempts: [outcome], seconds: seconds))
                    }
                }
                return RunResults(run: run, tests: tests)
            }
        }
    }

    /// Key, file and declared layer of every test with results in the given runs.
    /// - Parameter runs: the runs whose tests to describe.
    /// - Returns: the tests by their row in the store.
    /// - Throws: any SQLite error.
    public func testInfo(runs: [WindowRun]) throws -> [Int64: TestInfo] {
        try writer.read { db in
            var info: [Int64: TestInfo] = [:]
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, key, file, layer FROM test WHERE id IN (
                        SELECT DISTINCT testId FROM result JOIN json_each(?) c ON result.runId = c.value)
                    """, arguments: [Self.jsonArray(runs.map(\.row))])
            while let row = try cursor.next() {
                info[row[0]] = TestInfo(
                    key: row[1], file: row[2], declaredLayer: (row[3] as String?).flatMap(Layer.init(rawValue:)))
            }
            return info
        }
    }

    /// The predicate evaluations in the given runs, grouped by call site.
    ///
    /// A call site is a test, a predicate name and an expectation; its evaluations are in the
    /// order they happened.
    /// - Parameter runs: the runs to read.
    /// - Returns: the call sites, sorted by test and name.
    /// - Throws: any SQLite error.
    public func predicateSites(runs: [WindowRun]) throws -> [PredicateSite] {
        guard !runs.isEmpty else { return [] }
        let byRow = Dictionary(runs.map { ($0.row, $0) }, uniquingKeysWith: { first, _ in first })
        return try writer.read { db in
            var sites: [String: PredicateSite] = [:]
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT t.key, p.name, p.expect, r.runId, p.held, p.attempts, p.waited, p.timeout
                    FROM json_each(?) c
                    JOIN result r ON r.runId = c.value
                    JOIN predicate p ON p.resultId = r.id
                    JOIN test t ON t.id = r.testId
                    ORDER BY p.at
                    """, arguments: [Self.jsonArray(runs.map(\.row))])
            while let row = try cursor.next() {
                let test: String = row[0]
                let name: String = row[1]
                let expect = PredicateExpectation(rawValue: row[2]) ?? .holds
                let run = byRow[row[3] as Int64]
                let evaluation = PredicateEvaluation(
                    run: run?.id ?? "", revision: run?.revision, held: row[4], attempts: row[5], waited: row[6],
                    timeout: row[7])
                sites[
                    [test, name, expect.rawValue].joined(separator: "\u{0}"),
                    default: PredicateSite(
                        test: test, name: name, expect: expect, evaluations: [])
                ].evaluations.append(evaluation)
            }
            return sites.values.sorted { ($0.test, $0.name) < ($1.test, $1.name) }
        }
    }

    static let outcomes = Outcome.allCases
    static let crashedCode = Outcome.allCases.firstIndex(of: .crashed) ?? 0
    static let outcomeCodes = Outcome.allCases.enumerated().map { "WHEN '\($1.rawValue)' THEN \($0)" }
        .joined(separator: " ")

    /// Values as a JSON array, for `json_each(?)`.
    static func jsonArray(_ values: [some Encodable]) -> String {
        let data = (try? JSONEncoder().encode(values)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension WindowRun {
    init(row: Row) {
        self.init(row: row[0], id: row[1], startedAt: row[2], revision: row[3], configuration: row[4])
    }
}
