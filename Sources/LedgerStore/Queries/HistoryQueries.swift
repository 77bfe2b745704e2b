import Foundation
import GRDB
import LedgerCore

/// One test's results in one run, as the reports read them.
public struct TestRunRecord: Hashable, Sendable {
    public var run: String
    public var test: String
    public var file: String?
    public var declaredLayer: Layer?
    public var configuration: String
    public var attempts: [Outcome]
    public var seconds: Double
}

extension LedgerDatabase {
    /// The newest `count` runs of a project (or those since `since`), newest first.
    public func windowRuns(project: String, count: Int?, since: Double?) throws -> [RunHealth] {
        try writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH chosen AS (
                        SELECT id, startedAt FROM run
                        WHERE project = ?1 AND (?2 IS NULL OR startedAt >= ?2)
                        ORDER BY startedAt DESC LIMIT coalesce(?3, -1)),
                    final AS (
                        SELECT r.runId, r.outcome, max(r.attempt)
                        FROM result r JOIN chosen ON chosen.id = r.runId
                        GROUP BY r.runId, r.testId)
                    SELECT chosen.id, chosen.startedAt,
                        count(final.runId) AS tests,
                        coalesce(sum(final.outcome IN ('failed', 'error', 'crashed')), 0) AS failed
                    FROM chosen LEFT JOIN final ON final.runId = chosen.id
                    GROUP BY chosen.id ORDER BY chosen.startedAt DESC
                    """, arguments: [project, since, count])
            return rows.map {
                RunHealth(run: $0["id"], at: $0["startedAt"], tests: $0["tests"], failed: $0["failed"])
            }
        }
    }

    /// Every test's attempts in the given runs, in run order then attempt order.
    public func testRecords(runs: [String]) throws -> [TestRunRecord] {
        guard !runs.isEmpty else { return [] }
        return try writer.read { db in
            var records: [TestRunRecord] = []
            var current: TestRunRecord?
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT r.runId, t.key, t.file, t.layer, run.configuration, r.outcome,
                        coalesce(r.duration, 0), r.testId
                    FROM json_each(?) c
                    JOIN run ON run.id = c.value
                    JOIN result r ON r.runId = c.value
                    JOIN test t ON t.id = r.testId
                    ORDER BY r.runId, r.testId, r.attempt
                    """, arguments: [Self.jsonArray(runs)])
            while let row = try cursor.next() {
                let run: String = row[0]
                let test: String = row[1]
                let outcome = (row[5] as String?).flatMap(Outcome.init(rawValue:)) ?? .crashed
                let seconds: Double = row[6]
                if current?.run == run, current?.test == test {
                    current?.attempts.append(outcome)
                    current?.seconds += seconds
                    continue
                }
                if let current { records.append(current) }
                current = TestRunRecord(
                    run: run, test: test, file: row[2],
                    declaredLayer: (row[3] as String?).flatMap(Layer.init(rawValue:)),
                    configuration: row[4], attempts: [outcome], seconds: seconds)
            }
            if let current { records.append(current) }
            return records
        }
    }

    /// The predicate evaluations in the given runs, grouped by call site.
    public func predicateSites(runs: [String]) throws -> [PredicateSite] {
        guard !runs.isEmpty else { return [] }
        return try writer.read { db in
            var sites: [String: PredicateSite] = [:]
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT t.key, p.name, p.expect, r.runId, run.revision, p.held, p.attempts,
                        p.waited, p.timeout
                    FROM json_each(?) c
                    JOIN run ON run.id = c.value
                    JOIN result r ON r.runId = c.value
                    JOIN predicate p ON p.resultId = r.id
                    JOIN test t ON t.id = r.testId
                    ORDER BY run.startedAt, p.at
                    """, arguments: [Self.jsonArray(runs)])
            while let row = try cursor.next() {
                let test: String = row[0]
                let name: String = row[1]
                let expect = PredicateExpectation(rawValue: row[2]) ?? .holds
                let key = [test, name, expect.rawValue].joined(separator: "\u{0}")
                let evaluation = PredicateEvaluation(
                    run: row[3], revision: row[4], held: row[5], attempts: row[6], waited: row[7],
                    timeout: row[8])
                sites[key, default: PredicateSite(test: test, name: name, expect: expect, evaluations: [])]
                    .evaluations.append(evaluation)
            }
            return sites.values.sorted { ($0.test, $0.name) < ($1.test, $1.name) }
        }
    }

    static func jsonArray(_ values: [String]) -> String {
        JSONValue.array(values.map(JSONValue.string)).jsonText
    }
}
