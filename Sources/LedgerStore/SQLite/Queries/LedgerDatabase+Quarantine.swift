import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// Puts tests in quarantine, or changes how they are quarantined, and appends each change to
    /// the audit trail, all in one transaction. An entry identical to the one in force changes
    /// nothing and leaves no trail.
    ///
    /// - Parameters:
    ///   - entries: the tests and how to quarantine them.
    ///   - evidence: what an automatic change was based on (JSON), by test id.
    /// - Returns: the changes made, in the order of `entries`.
    /// - Throws: any SQLite error; nothing is changed then.
    @discardableResult
    public func quarantine(_ entries: [QuarantinedTest], evidence: [String: String] = [:]) throws
        -> [QuarantineChange]
    {
        try writer.write { db in
            try QuarantinedTest.quarantining(entries, evidence: evidence) { entry in
                try Self.quarantined(
                    db, where: "project = ? AND test = ? AND configuration = ?",
                    [entry.project, entry.test, entry.configuration]
                ).first
            } store: { stored in
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO quarantine
                            (project, test, configuration, mode, reason, actor, since, until, automatic)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        stored.project, stored.test, stored.configuration, stored.mode.rawValue, stored.reason,
                        stored.by, stored.since, stored.until, stored.automatic,
                    ])
            } log: {
                try Self.log($0, in: db)
            }
        }
    }

    /// Takes tests out of quarantine and appends each removal to the audit trail, in one transaction.
    ///
    /// - Parameters:
    ///   - tests: the test ids.
    ///   - project: their project.
    ///   - configuration: the configuration they were quarantined for.
    ///   - reason: why they are released.
    ///   - by: who releases them; `testledger` for the automatic policy.
    ///   - at: when, in seconds since 1970.
    ///   - automatic: whether the automatic policy releases them.
    ///   - evidence: what an automatic release was based on (JSON), by test id.
    /// - Returns: the removals, in the order of `tests`.
    /// - Throws: ``StoreError/notInQuarantine(_:)`` naming the tests that are not quarantined (and
    ///   nothing is changed); any SQLite error.
    @discardableResult
    public func release(
        _ tests: [String], project: String, configuration: String = QuarantinedTest.everyConfiguration,
        reason: String, by: String, at: Double, automatic: Bool = false, evidence: [String: String] = [:]
    ) throws -> [QuarantineChange] {
        try writer.write { db in
            try QuarantineChange.releasing(
                tests, project: project, configuration: configuration, reason: reason, by: by, at: at,
                automatic: automatic, evidence: evidence
            ) { test in
                try db.execute(
                    sql: "DELETE FROM quarantine WHERE project = ? AND test = ? AND configuration = ?",
                    arguments: [project, test, configuration])
                return db.changesCount > 0
            } log: {
                try Self.log($0, in: db)
            }
        }
    }

    /// The audit trail of `project`'s quarantine, oldest first.
    /// - Throws: any SQLite error.
    public func quarantineLog(project: String) throws -> [QuarantineChange] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, project, test, configuration, action, mode, reason, actor, at, until, automatic,
                        evidence
                    FROM quarantine_log WHERE project = ? ORDER BY id
                    """, arguments: [project]
            ).map { row in
                QuarantineChange(
                    id: row["id"], project: row["project"], test: row["test"], configuration: row["configuration"],
                    action: QuarantineChange.Action(rawValue: row["action"]) ?? .change,
                    mode: (row["mode"] as String?).flatMap(QuarantineMode.init(rawValue:)), reason: row["reason"],
                    by: row["actor"], at: row["at"], until: row["until"], automatic: row["automatic"],
                    evidence: row["evidence"])
            }
        }
    }

    /// The ids of every test the ledger has seen in `project`, sorted.
    /// - Throws: any SQLite error.
    public func testIDs(project: String) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT key FROM test WHERE project = ? ORDER BY key", arguments: [project])
        }
    }

    static func quarantined(_ db: Database, where condition: String, _ arguments: StatementArguments) throws
        -> [QuarantinedTest]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT project, test, configuration, mode, reason, actor, since, until, automatic
                FROM quarantine WHERE \(condition) ORDER BY test, configuration
                """, arguments: arguments
        ).map { row in
            QuarantinedTest(
                project: row["project"], test: row["test"], configuration: row["configuration"],
                mode: QuarantineMode(rawValue: row["mode"]) ?? .mute, reason: row["reason"], by: row["actor"],
                since: row["since"], until: row["until"], automatic: row["automatic"])
        }
    }

    private static func log(_ change: QuarantineChange, in db: Database) throws -> QuarantineChange {
        try db.execute(
            sql: """
                INSERT INTO quarantine_log
                    (project, test, configuration, action, mode, reason, actor, at, until, automatic, evidence)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                change.project, change.test, change.configuration, change.action.rawValue, change.mode?.rawValue,
                change.reason, change.by, change.at, change.until, change.automatic, change.evidence,
            ])
        var logged = change
        logged.id = db.lastInsertedRowID
        return logged
    }
}

extension LedgerDatabase {
    /// Flags every result of `tests` in `run` as muted: they ran under quarantine.
    ///
    /// - Parameters:
    ///   - run: the run's id.
    ///   - tests: the muted test ids.
    /// - Throws: any SQLite error.
    public func markMuted(run: String, tests: [String]) throws {
        guard !tests.isEmpty else { return }
        try writer.write { db in
            try db.execute(
                sql: """
                    UPDATE result SET muted = 1
                    WHERE runId = (SELECT id FROM run WHERE uuid = ?1)
                        AND testId IN (
                            SELECT test.id FROM test JOIN run ON run.uuid = ?1 AND test.project = run.project
                            WHERE test.key IN (SELECT value FROM json_each(?2)))
                    """, arguments: [run, Self.jsonArray(tests)])
        }
    }

    /// The tests of `run` whose final attempt failed, erred or crashed (or never ended), sorted.
    /// - Throws: any SQLite error.
    public func failingTests(run: String) throws -> [String] {
        try writer.read { db in
            guard let row = try Int64.fetchOne(db, sql: "SELECT id FROM run WHERE uuid = ?", arguments: [run]) else {
                return []
            }
            return try FinalResult.all(run: row, in: db).filter(\.outcome.isFailure).map(\.test)
        }
    }
}

extension LedgerDatabase {
    /// Each entry's runs and failures since it was quarantined, by test id.
    /// - Throws: any SQLite error.
    public func resultsInQuarantine(_ entries: [QuarantinedTest]) throws -> [String: ResultsInQuarantine] {
        try writer.read { db in
            var results: [String: ResultsInQuarantine] = [:]
            for entry in entries {
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT count(*), coalesce(sum(outcome IS NULL OR outcome IN ('failed', 'error', 'crashed')), 0)
                        FROM (
                            SELECT r.outcome, max(r.attempt) FROM result r
                            JOIN test t ON t.id = r.testId JOIN run ON run.id = r.runId
                            WHERE t.project = ? AND t.key = ? AND run.startedAt >= ?
                                AND (? = '*' OR run.configuration = ?)
                            GROUP BY r.runId)
                        """,
                    arguments: [entry.project, entry.test, entry.since, entry.configuration, entry.configuration])
                results[entry.test] = ResultsInQuarantine(runs: row?[0] ?? 0, failures: row?[1] ?? 0)
            }
            return results
        }
    }
}
