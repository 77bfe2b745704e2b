import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// One test's final attempt in a run (the newest run that has it, by default), with its
    /// failures, activity tree, captures and predicates.
    /// - Parameters:
    ///   - test: the stable test id.
    ///   - run: a run id; the newest run with the test when `nil`.
    ///   - project: only runs of this project, when given.
    /// - Throws: ``StoreError/noSuchTest(_:)`` when no run has that test.
    public func testDetail(test: String, run: String?, project: String? = nil) throws -> TestDetail {
        try writer.read { db in
            guard
                let result = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT r.id, r.runId, run.uuid, r.startedAt, r.duration,
                            \(Self.attemptOutcome(result: "r", run: "run")) AS outcome, t.id AS testId,
                            t.file, t.line, t.layer
                        FROM result r JOIN test t ON t.id = r.testId JOIN run ON run.id = r.runId
                        WHERE t.key = ?1 AND (?2 IS NULL OR run.uuid = ?2) AND (?3 IS NULL OR run.project = ?3)
                        ORDER BY run.startedAt DESC, r.attempt DESC LIMIT 1
                        """, arguments: [test, run, project])
            else { throw StoreError.noSuchTest(test + (run.map { " in run \($0)" } ?? "")) }
            let resultID: Int64 = result["id"]
            let attempts = try String?.fetchAll(
                db,
                sql: """
                    SELECT \(Self.attemptOutcome(result: "r", run: "run")) FROM result r JOIN run ON run.id = r.runId
                    WHERE r.runId = ? AND r.testId = ? ORDER BY r.attempt
                    """,
                arguments: [result["runId"] as Int64, result["testId"] as Int64]
            ).map { $0 ?? "running" }
            let activityNames = try Dictionary(
                Row.fetchAll(db, sql: "SELECT id, name FROM activity WHERE resultId = ?", arguments: [resultID])
                    .map { ($0[0] as Int64, ($0[1] as String?) ?? "") }, uniquingKeysWith: { first, _ in first })
            return TestDetail(
                test: test, run: result["uuid"], startedAt: iso8601(result["startedAt"]),
                outcome: result["outcome"] ?? "running", duration: result["duration"], attempts: attempts,
                file: result["file"], line: result["line"],
                layer: (result["layer"] as String?).flatMap(Layer.init(rawValue:)),
                issues: try Row.fetchAll(
                    db, sql: "SELECT message, file, line, kind FROM issue WHERE resultId = ? ORDER BY at, id",
                    arguments: [resultID]
                ).map { TestDetail.IssueDetail(message: $0[0], file: $0[1], line: $0[2], kind: $0[3]) },
                activities: try activityTree(resultID, in: db),
                captures: try Row.fetchAll(
                    db, sql: "SELECT verifier, fields, activityId FROM capture WHERE resultId = ? ORDER BY at, id",
                    arguments: [resultID]
                ).map {
                    TestDetail.CaptureDetail(
                        verifier: $0[0], fields: ($0[1] as String?).flatMap { JSONValue(jsonText: $0) },
                        activity: ($0[2] as Int64?).flatMap { activityNames[$0] })
                },
                predicates: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT name, expect, held, attempts, waited, timeout, interval, file, line, activityId
                        FROM predicate WHERE resultId = ? ORDER BY at, id
                        """, arguments: [resultID]
                ).map {
                    TestDetail.PredicateDetail(
                        name: $0[0], expect: PredicateExpectation(rawValue: $0[1]) ?? .holds, held: $0[2],
                        attempts: $0[3], waited: $0[4], timeout: $0[5], interval: $0[6], file: $0[7], line: $0[8],
                        activity: ($0[9] as Int64?).flatMap { activityNames[$0] })
                })
        }
    }

    private func activityTree(_ resultID: Int64, in db: Database) throws -> [TestDetail.ActivityDetail] {
        let rows = try Row.fetchAll(
            db,
            sql:
                "SELECT id, parentId, name, startedAt, endedAt, outcome FROM activity WHERE resultId = ? ORDER BY startedAt, id",
            arguments: [resultID])
        var children: [Int64?: [Row]] = [:]
        for row in rows { children[row[1] as Int64?, default: []].append(row) }
        func build(_ parent: Int64?) -> [TestDetail.ActivityDetail] {
            (children[parent] ?? []).map { row in
                let started: Double = row[3]
                let ended: Double? = row[4]
                return TestDetail.ActivityDetail(
                    name: row[2] ?? "", duration: ended.map { $0 - started }, outcome: row[5],
                    children: build(row[0] as Int64))
            }
        }
        return build(nil)
    }
}
