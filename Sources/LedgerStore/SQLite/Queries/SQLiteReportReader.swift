import Foundation
import GRDB
import LedgerCore

/// The reports' reads from SQLite, inside one read transaction.
struct SQLiteReportReader: ReportReading {
    let db: Database

    var storeReader: any StoreReader { SQLiteReader(db: db) }

    func windowRuns(project: String, count: Int?, since: Double?) throws -> [WindowRun] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, uuid, project, startedAt, revision, configuration FROM run
                WHERE project = ?1 AND (?2 IS NULL OR startedAt >= ?2) AND kind IS NULL
                ORDER BY startedAt DESC, id DESC LIMIT coalesce(?3, -1)
                """, arguments: [project, since, count]
        ).map(WindowRun.init(row:))
    }

    func windowRun(id: String, project: String?) throws -> WindowRun? {
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

    func latestProject() throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT project FROM run WHERE kind IS NULL ORDER BY startedAt DESC, id DESC LIMIT 1")
    }

    func latestRunID(project: String?) throws -> String? {
        try String.fetchOne(
            db,
            sql: """
                SELECT uuid FROM run WHERE (?1 IS NULL OR project = ?1) AND kind IS NULL
                ORDER BY startedAt DESC, id DESC LIMIT 1
                """,
            arguments: [project])
    }

    func testInfo(ids: [Int64]) throws -> [Int64: TestInfo] {
        try testInfo(
            sql: "SELECT id, key, file, layer FROM test WHERE id IN (SELECT value FROM json_each(?))",
            argument: LedgerDatabase.jsonArray(ids))
    }

    func testInfo(project: String) throws -> [Int64: TestInfo] {
        try testInfo(sql: "SELECT id, key, file, layer FROM test WHERE project = ?", argument: project)
    }

    private func testInfo(sql: String, argument: String) throws -> [Int64: TestInfo] {
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

    /// A run stored without a summary (which ingest never leaves) is summarised from its results.
    func forEachSummary(of runs: [WindowRun], seconds: Bool, _ body: (WindowRun, SummaryView) throws -> Bool) throws {
        let statement = try db.cachedStatement(
            sql: seconds
                ? "SELECT tests, failed, outcomes, seconds, concurrent FROM run_summary WHERE runId = ?"
                : "SELECT tests, failed, outcomes, x'', concurrent FROM run_summary WHERE runId = ?")
        for run in runs {
            var fast = FastStatement(statement)
            fast.bind(run.row)
            let stored = try fast.row(in: db) { row in
                try row.withBlob(2) { outcomes in
                    try row.withBlob(3) { seconds in
                        try body(
                            run,
                            SummaryView(
                                tests: Int(row.int64(0)), failed: Int(row.int64(1)),
                                entries: SummaryEntries(bytes: outcomes), seconds: seconds,
                                concurrent: row.int(4).map { $0 != 0 }))
                    }
                }
            }
            let goOn = try stored ?? RunSummary.read(run: run.row, in: db).withView { try body(run, $0) }
            if !goOn { return }
        }
    }

    func predicateEvaluations(runs: [WindowRun]) throws -> [PredicateRow] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT t.key AS test, p.name, p.expect, p.runId, p.held, p.attempts, p.waited, p.timeout
                FROM predicate p
                JOIN result r ON r.id = p.resultId
                JOIN test t ON t.id = r.testId
                WHERE p.runId IN (SELECT value FROM json_each(?))
                ORDER BY p.at, p.id
                """, arguments: [LedgerDatabase.jsonArray(runs.map(\.row))]
        ).map { row in
            PredicateRow(
                test: row["test"], name: row["name"], expect: row["expect"], run: row["runId"], held: row["held"],
                attempts: row["attempts"], waited: row["waited"], timeout: row["timeout"])
        }
    }

    func quarantine(project: String) throws -> [QuarantinedTest] {
        try LedgerDatabase.quarantined(db, where: "project = ?", [project])
    }

    func branch(ofRun row: Int64) throws -> String? {
        try String.fetchOne(db, sql: "SELECT branch FROM run WHERE id = ?", arguments: [row])
    }

    func firstTestOffsets(runs: [WindowRun]) throws -> [Int64: Double] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT r.runId, MIN(r.startedAt) - run.startedAt AS firstTest FROM result r JOIN run ON run.id = r.runId
                WHERE r.runId IN (SELECT value FROM json_each(?)) GROUP BY r.runId ORDER BY r.runId
                """, arguments: [LedgerDatabase.jsonArray(runs.map(\.row))])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["runId"], $0["firstTest"]) })
    }

    func runEnds(runs: [WindowRun]) throws -> [Int64: (seconds: Double, passed: Bool)] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT run.id, coalesce(
                    run.endedAt - run.startedAt,
                    (SELECT sum(coalesce(r.duration, 0)) FROM result r WHERE r.runId = run.id), 0) AS seconds,
                    coalesce(run.outcome = 'passed', 0) AS passed
                FROM run WHERE run.id IN (SELECT value FROM json_each(?))
                """, arguments: [LedgerDatabase.jsonArray(runs.map(\.row))])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"], (seconds: $0["seconds"], passed: $0["passed"])) })
    }

    func runLoads(runs: [WindowRun]) throws -> [Int64: (host: String?, load: Double?)] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT run.id, run.host, CASE WHEN s.concurrent IS NOT NULL THEN s.load
                    ELSE (SELECT max(r.load) FROM result r WHERE r.runId = run.id) END AS load
                FROM run LEFT JOIN run_summary s ON s.runId = run.id WHERE run.id IN (SELECT value FROM json_each(?))
                """, arguments: [LedgerDatabase.jsonArray(runs.map(\.row))])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"], (host: $0["host"], load: $0["load"])) })
    }

    func finalResults(run row: Int64) throws -> [FinalResult] {
        try FinalResult.all(run: row, in: db)
    }

    func attempts(run row: Int64) throws -> [RecordedAttempt] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT test.key AS test, test.suite, test.name, test.file, test.line, r.attempt, r.startedAt,
                    r.duration, r.outcome, (SELECT message FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1) AS issue,
                    r.message
                FROM result r JOIN test ON test.id = r.testId
                WHERE r.runId = ? ORDER BY test.key, r.attempt
                """, arguments: [row]
        ).map { row in
            RecordedAttempt(
                test: row["test"], suite: row["suite"], name: row["name"], file: row["file"], line: row["line"],
                attempt: row["attempt"], startedAt: row["startedAt"], duration: row["duration"],
                outcome: (row["outcome"] as String?).flatMap(Outcome.init(rawValue:)), message: row["issue"],
                detail: row["message"])
        }
    }

    func activities(run row: Int64, tests: [String]) throws -> [(test: String, attempt: Int, activity: StoredActivity)]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT t.key AS test, r.attempt, a.id, a.parentId, a.name, a.startedAt, a.endedAt, a.outcome,
                    a.key AS activityKey
                FROM activity a JOIN result r ON r.id = a.resultId JOIN test t ON t.id = r.testId
                WHERE r.runId = ? AND t.key IN (SELECT value FROM json_each(?))
                ORDER BY a.resultId, a.startedAt, a.id
                """, arguments: [row, LedgerDatabase.jsonArray(tests)]
        ).map {
            (
                $0["test"], $0["attempt"],
                StoredActivity(
                    id: $0["id"], parent: $0["parentId"], name: $0["name"], started: $0["startedAt"],
                    ended: $0["endedAt"], outcome: $0["outcome"], key: $0["activityKey"])
            )
        }
    }

    func baseRuns(of run: WindowRun, branch: String) throws -> [WindowRun] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, uuid, project, startedAt, revision, configuration FROM run
                WHERE project = ? AND branch = ? AND id != ? AND startedAt <= ? AND configuration = ?
                    AND kind IS NULL
                ORDER BY startedAt DESC, id DESC
                """, arguments: [run.project, branch, run.row, run.startedAt, run.configuration]
        ).map(WindowRun.init(row:))
    }

    func failingAttempts(run row: Int64, test: Int64) throws -> [FailingAttempt] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT r.outcome,
                    coalesce(
                        (SELECT message FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1), r.message) AS message,
                    (SELECT file FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1) AS file,
                    (SELECT line FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1) AS line
                FROM result r
                WHERE r.runId = ? AND r.testId = ?
                    AND (r.outcome IS NULL OR r.outcome IN ('failed', 'error', 'crashed'))
                ORDER BY r.attempt
                """)
        return try Row.fetchAll(statement, arguments: [row, test]).map { row in
            FailingAttempt(outcome: row["outcome"], message: row["message"], file: row["file"], line: row["line"])
        }
    }
}

extension SQLiteReportReader {
    func evidenceAttempts(tests: [String], project: String, runs: [WindowRun]) throws -> [EvidenceRows.Attempt] {
        var attempts: [EvidenceRows.Attempt] = []
        let keys = try Dictionary(
            Row.fetchAll(
                db,
                sql: "SELECT id, key FROM test WHERE project = ? AND key IN (SELECT value FROM json_each(?))",
                arguments: [project, LedgerDatabase.jsonArray(tests)]
            ).map { ($0["id"] as Int64, $0["key"] as String) }, uniquingKeysWith: { first, _ in first })
        let hosts = try Dictionary(
            Row.fetchAll(
                db, sql: "SELECT id, host FROM run WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [LedgerDatabase.jsonArray(runs.map(\.row))]
            ).map { ($0["id"] as Int64, $0["host"] as String?) }, uniquingKeysWith: { first, _ in first })
        // Rows and ids only, read through SQLite's C API: `report flaky` reads every flaky test's
        // attempts here. An attempt that never ended counts as failing, crashed or running alike.
        var statement = FastStatement(
            try db.cachedStatement(
                sql: """
                    SELECT r.id, r.testId, r.runId, r.attempt, r.outcome, r.startedAt, r.duration, r.message,
                        r.process, r.load, r.cpu
                    FROM result r
                    WHERE r.testId IN (SELECT value FROM json_each(?1)) AND r.runId IN (SELECT value FROM json_each(?2))
                    """))
        statement.bind(LedgerDatabase.jsonArray(Array(keys.keys)))
        statement.bind(LedgerDatabase.jsonArray(runs.map(\.row)))
        try statement.forEachRow(in: db) { row in
            let run = row.int64(2)
            attempts.append(
                EvidenceRows.Attempt(
                    id: row.int64(0), test: keys[row.int64(1)] ?? "", testRow: row.int64(1), run: run,
                    attempt: row.int(3) ?? 1,
                    outcome: row.string(4), startedAt: row.double(5), duration: row.optionalDouble(6),
                    message: row.string(7), host: hosts[run] ?? nil, process: row.int(8), load: row.optionalDouble(9),
                    cpu: row.optionalDouble(10)))
        }
        return attempts
    }

    func timeline(run row: Int64) throws -> [RunNeighbourhood.Row] {
        var statement = FastStatement(
            try db.cachedStatement(
                sql: "SELECT id, testId, startedAt, duration, outcome, process FROM result WHERE runId = ?"))
        statement.bind(row)
        var rows: [RunNeighbourhood.Row] = []
        try statement.forEachRow(in: db) { row in
            rows.append(
                RunNeighbourhood.Row(
                    id: row.int64(0), test: row.int64(1), startedAt: row.double(2), duration: row.optionalDouble(3),
                    isFailing: row.withText(4, RunSummary.Code.outcome(named:)).isFailure, process: row.int(5)))
        }
        return rows
    }
}

extension WindowRun {
    init(row: Row) {
        self.init(
            row: row["id"], id: row["uuid"], project: row["project"], startedAt: row["startedAt"],
            revision: row["revision"], configuration: row["configuration"])
    }
}
