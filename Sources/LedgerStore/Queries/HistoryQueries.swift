import Foundation
import GRDB
import LedgerCore

/// A run inside a report's window.
public struct WindowRun: Hashable, Sendable {
    /// The run's row in the store.
    public var row: Int64
    /// The run's id (its UUID).
    public var id: String
    /// The project the run belongs to.
    public var project: String
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
                    SELECT id, uuid, project, startedAt, revision, configuration FROM run
                    WHERE project = ?1 AND (?2 IS NULL OR startedAt >= ?2)
                    ORDER BY startedAt DESC, id DESC LIMIT coalesce(?3, -1)
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
                    SELECT id, uuid, project, startedAt, revision, configuration FROM run
                    WHERE uuid = ? AND (? IS NULL OR project = ?)
                    """,
                arguments: [id, project, project]
            )
            .map(WindowRun.init(row:))
        }
    }

    /// Key, file and declared layer of tests by their rows.
    func testInfo(ids: [Int64], in db: Database) throws -> [Int64: TestInfo] {
        try testInfo(
            db, sql: "SELECT id, key, file, layer FROM test WHERE id IN (SELECT value FROM json_each(?))",
            argument: Self.jsonArray(ids))
    }

    /// Key, file and declared layer of every test of a project, by row.
    func testInfo(project: String, in db: Database) throws -> [Int64: TestInfo] {
        try testInfo(db, sql: "SELECT id, key, file, layer FROM test WHERE project = ?", argument: project)
    }

    private func testInfo(_ db: Database, sql: String, argument: String) throws -> [Int64: TestInfo] {
        var statement = FastStatement(try db.cachedStatement(sql: sql))
        statement.bind(argument)
        var info: [Int64: TestInfo] = [:]
        try statement.forEachRow(in: db) { row in
            info[row.int64(0)] = TestInfo(
                key: row.string(1) ?? "", file: row.string(2),
                declaredLayer: row.string(3).flatMap(Layer.init(rawValue:)))
        }
        return info
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
                    SELECT t.key, p.name, p.expect, p.runId, p.held, p.attempts, p.waited, p.timeout
                    FROM predicate p
                    JOIN result r ON r.id = p.resultId
                    JOIN test t ON t.id = r.testId
                    WHERE p.runId IN (SELECT value FROM json_each(?))
                    ORDER BY p.at, p.id
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
            return sites.values.sorted {
                ($0.test, $0.name, $0.expect.rawValue) < ($1.test, $1.name, $1.expect.rawValue)
            }
        }
    }

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
        self.init(
            row: row[0], id: row[1], project: row[2], startedAt: row[3], revision: row[4], configuration: row[5])
    }
}
