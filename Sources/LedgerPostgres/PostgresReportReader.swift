import Foundation
import LedgerCore
import LedgerStore
import PostgresNIO

/// The reports' reads from PostgreSQL, inside one read-only transaction that sees one snapshot.
///
/// Text is ordered `COLLATE "C"`, by code point as SQLite orders it, whatever the database's
/// collation: the reports come out the same from both stores.
struct PostgresReportReader: ReportReading {
    let session: PostgresSession
    /// How many runs' summaries one statement reads.
    static let summariesPerStatement = 50

    var storeReader: any StoreReader { PostgresReader(session: session) }

    func windowRuns(project: String, count: Int?, since: Double?) throws -> [WindowRun] {
        // SQLite reads a negative limit as none.
        let count = count.flatMap { $0 < 0 ? nil : $0 }
        return try session.rows(
            """
            SELECT id, uuid, project, startedAt, revision, configuration FROM run
            WHERE project = \(project) AND (\(since)::float8 IS NULL OR startedAt >= \(since)) AND kind IS NULL
            ORDER BY startedAt DESC, id DESC LIMIT \(count)
            """
        ).map(WindowRun.init(row:))
    }

    func windowRun(id: String, project: String?) throws -> WindowRun? {
        try session.rows(
            """
            SELECT id, uuid, project, startedAt, revision, configuration FROM run
            WHERE uuid = \(id) AND (\(project)::text IS NULL OR project = \(project))
            """
        ).first.map(WindowRun.init(row:))
    }

    func latestProject() throws -> String? {
        try session.value("SELECT project FROM run WHERE kind IS NULL ORDER BY startedAt DESC, id DESC LIMIT 1")
    }

    func latestRunID(project: String?) throws -> String? {
        try session.value(
            """
            SELECT uuid FROM run WHERE (\(project)::text IS NULL OR project = \(project)) AND kind IS NULL
            ORDER BY startedAt DESC, id DESC LIMIT 1
            """)
    }

    func testInfo(ids: [Int64]) throws -> [Int64: TestInfo] {
        try testInfo(session.rows("SELECT id, key, file, layer FROM test WHERE id = ANY(\(ids))"))
    }

    func testInfo(project: String) throws -> [Int64: TestInfo] {
        try testInfo(session.rows("SELECT id, key, file, layer FROM test WHERE project = \(project)"))
    }

    private func testInfo(_ rows: [PostgresRow]) throws -> [Int64: TestInfo] {
        var info: [Int64: TestInfo] = [:]
        for row in rows {
            let (id, key, file, layer) = try row.decode((Int64, String, String?, String?).self)
            info[id] = TestInfo(key: key, file: file, declaredLayer: layer.flatMap(Layer.init(rawValue:)))
        }
        return info
    }

    /// A run stored without a summary (which ingest never leaves) is summarised from its results.
    func forEachSummary(of runs: [WindowRun], seconds: Bool, _ body: (WindowRun, SummaryView) throws -> Bool) throws {
        var start = runs.startIndex
        while start < runs.endIndex {
            let chunk = runs[start..<min(start + Self.summariesPerStatement, runs.endIndex)]
            start = chunk.endIndex
            var stored: [Int64: RunSummary] = [:]
            for row in try session.rows(
                """
                SELECT runId, failed, outcomes, CASE WHEN \(seconds) THEN seconds ELSE '\\x'::bytea END, concurrent
                FROM run_summary WHERE runId = ANY(\(chunk.map(\.row)))
                """)
            {
                let (run, failed, outcomes, seconds, concurrent) = try row.decode((Int64, Int, Data, Data, Bool?).self)
                stored[run] = RunSummary(
                    outcomes: [UInt8](outcomes), seconds: [UInt8](seconds), failed: failed, concurrent: concurrent)
            }
            for run in chunk {
                let summary = try stored[run.row] ?? PostgresWrites.readSummary(run: run.row, in: session)
                guard try summary.withView({ try body(run, $0) }) else { return }
            }
        }
    }

    func predicateEvaluations(runs: [WindowRun]) throws -> [PredicateRow] {
        try session.rows(
            """
            SELECT t.key, p.name, p.expect, p.runId, p.held, p.attempts, p.waited, p.timeout
            FROM predicate p
            JOIN result r ON r.id = p.resultId
            JOIN test t ON t.id = r.testId
            WHERE p.runId = ANY(\(runs.map(\.row)))
            ORDER BY p.at, p.id
            """
        ).map { row in
            let (test, name, expect, run, held, attempts, waited, timeout) = try row.decode(
                (String, String, String, Int64, Int, Int, Double, Double).self)
            return PredicateRow(
                test: test, name: name, expect: expect, run: run, held: held != 0, attempts: attempts,
                waited: waited, timeout: timeout)
        }
    }

    func quarantine(project: String) throws -> [QuarantinedTest] {
        try PostgresLedger.quarantined(session, project: project)
    }

    func branch(ofRun row: Int64) throws -> String? {
        try session.rows("SELECT branch FROM run WHERE id = \(row)").first.flatMap { try $0.decode(String?.self) }
    }

    func firstTestOffsets(runs: [WindowRun]) throws -> [Int64: Double] {
        let rows = try session.rows(
            """
            SELECT r.runId, MIN(r.startedAt) - run.startedAt FROM result r JOIN run ON run.id = r.runId
            WHERE r.runId = ANY(\(runs.map(\.row))) GROUP BY r.runId, run.startedAt
            """
        ).map { try $0.decode((Int64, Double).self) }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    func runEnds(runs: [WindowRun]) throws -> [Int64: (seconds: Double, passed: Bool)] {
        let rows = try session.rows(
            """
            SELECT run.id, coalesce(
                run.endedAt - run.startedAt,
                (SELECT sum(coalesce(r.duration, 0)) FROM result r WHERE r.runId = run.id), 0)::float8,
                coalesce(run.outcome = 'passed', false)
            FROM run WHERE run.id = ANY(\(runs.map(\.row)))
            """
        ).map { try $0.decode((Int64, Double, Bool).self) }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.0, (seconds: $0.1, passed: $0.2)) })
    }

    func runLoads(runs: [WindowRun]) throws -> [Int64: (host: String?, load: Double?)] {
        let rows = try session.rows(
            """
            SELECT run.id, run.host, CASE WHEN s.concurrent IS NOT NULL THEN s.load
                ELSE (SELECT max(r.load) FROM result r WHERE r.runId = run.id) END
            FROM run LEFT JOIN run_summary s ON s.runId = run.id WHERE run.id = ANY(\(runs.map(\.row)))
            """
        ).map { try $0.decode((Int64, String?, Double?).self) }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.0, (host: $0.1, load: $0.2)) })
    }

    func finalResults(run row: Int64) throws -> [FinalResult] {
        try PostgresLedger.finalResults(run: row, in: session)
    }

    func attempts(run row: Int64) throws -> [RecordedAttempt] {
        try session.rows(
            """
            SELECT test.key, test.suite, test.name, test.file, test.line, r.attempt, r.startedAt, r.duration,
                r.outcome, (SELECT message FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1), r.message
            FROM result r JOIN test ON test.id = r.testId
            WHERE r.runId = \(row) ORDER BY test.key COLLATE "C", r.attempt
            """
        ).map { row in
            let (test, suite, name, file, line, attempt, startedAt, duration, outcome, message, detail) =
                try row.decode(
                    (String, String?, String?, String?, Int64?, Int64, Double, Double?, String?, String?, String?)
                        .self)
            return RecordedAttempt(
                test: test, suite: suite, name: name, file: file, line: line.map(Int.init), attempt: Int(attempt),
                startedAt: startedAt, duration: duration, outcome: outcome.flatMap(Outcome.init(rawValue:)),
                message: message, detail: detail)
        }
    }

    func activities(run row: Int64, tests: [String]) throws -> [(test: String, attempt: Int, activity: StoredActivity)]
    {
        try session.rows(
            """
            SELECT t.key, r.attempt, a.id, a.parentId, a.name, a.startedAt, a.endedAt, a.outcome, a.key
            FROM activity a JOIN result r ON r.id = a.resultId JOIN test t ON t.id = r.testId
            WHERE r.runId = \(row) AND t.key = ANY(\(tests)) ORDER BY a.resultId, a.startedAt, a.id
            """
        ).map { row in
            let (test, attempt, id, parent, name, started, ended, outcome, key) = try row.decode(
                (String, Int64, Int64, Int64?, String?, Double, Double?, String?, String).self)
            return (
                test, Int(attempt),
                StoredActivity(
                    id: id, parent: parent, name: name, started: started, ended: ended, outcome: outcome, key: key)
            )
        }
    }

    func baseRuns(of run: WindowRun, branch: String) throws -> [WindowRun] {
        try session.rows(
            """
            SELECT id, uuid, project, startedAt, revision, configuration FROM run
            WHERE project = \(run.project) AND branch = \(branch) AND id != \(run.row)
                AND startedAt <= \(run.startedAt) AND configuration = \(run.configuration) AND kind IS NULL
            ORDER BY startedAt DESC, id DESC
            """
        ).map(WindowRun.init(row:))
    }

    func failingAttempts(run row: Int64, test: Int64) throws -> [FailingAttempt] {
        try session.rows(
            """
            SELECT r.outcome,
                coalesce((SELECT message FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1), r.message),
                (SELECT file FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1),
                (SELECT line FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1)
            FROM result r
            WHERE r.runId = \(row) AND r.testId = \(test)
                AND (r.outcome IS NULL OR r.outcome IN ('failed', 'error', 'crashed'))
            ORDER BY r.attempt
            """
        ).map { row in
            let (outcome, message, file, line) = try row.decode((String?, String?, String?, Int?).self)
            return FailingAttempt(outcome: outcome, message: message, file: file, line: line)
        }
    }
}

extension PostgresReportReader {
    func evidenceAttempts(tests: [String], project: String, runs: [WindowRun]) throws -> [EvidenceRows.Attempt] {
        try session.rows(
            """
            SELECT r.id, t.key, t.id, r.runId, r.attempt, r.outcome,
                r.startedAt, r.duration, r.message, run.host, r.process, r.load, r.cpu
            FROM test t JOIN result r ON r.testId = t.id JOIN run ON run.id = r.runId
            WHERE t.project = \(project) AND t.key = ANY(\(tests)) AND r.runId = ANY(\(runs.map(\.row)))
            """
        ).map { row in
            let (id, test, testRow, run, attempt, outcome, startedAt, duration, message, host, process, load, cpu) =
                try row.decode(
                    (
                        Int64, String, Int64, Int64, Int, String?, Double, Double?, String?, String?, Int?, Double?,
                        Double?
                    ).self)
            return EvidenceRows.Attempt(
                id: id, test: test, testRow: testRow, run: run, attempt: attempt, outcome: outcome,
                startedAt: startedAt, duration: duration, message: message, host: host, process: process, load: load,
                cpu: cpu)
        }
    }

    func timeline(run row: Int64) throws -> [RunNeighbourhood.Row] {
        try session.rows(
            "SELECT id, testId, startedAt, duration, outcome, process FROM result WHERE runId = \(row)"
        ).map { row in
            let (id, test, startedAt, duration, outcome, process) = try row.decode(
                (Int64, Int64, Double, Double?, String?, Int?).self)
            return RunNeighbourhood.Row(
                id: id, test: test, startedAt: startedAt, duration: duration,
                isFailing: outcome.flatMap(Outcome.init(rawValue:))?.isFailure ?? true, process: process)
        }
    }
}

extension WindowRun {
    init(row: PostgresRow) throws {
        let (id, uuid, project, startedAt, revision, configuration) = try row.decode(
            (Int64, String, String, Double, String?, String).self)
        self.init(
            row: id, id: uuid, project: project, startedAt: startedAt, revision: revision, configuration: configuration)
    }
}

extension PostgresLedger {
    public func reading<Result>(_ body: (ReportSnapshot) throws -> Result) throws -> Result {
        try transaction(readOnly: true) { try body(ReportSnapshot(PostgresReportReader(session: $0))) }
    }

    /// Every test's final attempt in the run at `row`, by test id.
    static func finalResults(run row: Int64, in session: PostgresSession) throws -> [FinalResult] {
        try session.rows(
            """
            SELECT test.key, final.outcome,
                coalesce(final.message,
                    (SELECT message FROM issue WHERE issue.resultId = final.id ORDER BY issue.id LIMIT 1)),
                placed.file, placed.line, test.file, test.line
            FROM (
                SELECT DISTINCT ON (testId) id, testId, outcome, message FROM result WHERE runId = \(row)
                ORDER BY testId, attempt DESC
            ) AS final JOIN test ON test.id = final.testId
            LEFT JOIN issue AS placed ON placed.id = (
                SELECT id FROM issue WHERE issue.resultId = final.id AND issue.file IS NOT NULL
                ORDER BY issue.id LIMIT 1)
            ORDER BY test.key COLLATE "C"
            """
        ).map { row in
            let (test, outcome, message, issueFile, issueLine, testFile, testLine) = try row.decode(
                (String, String?, String?, String?, Int64?, String?, Int64?).self)
            return FinalResult.placed(
                test: test, outcome: outcome.flatMap(Outcome.init(rawValue:)) ?? .crashed, message: message,
                issue: (issueFile, issueLine.map(Int.init)), declaration: (testFile, testLine.map(Int.init)))
        }
    }

    /// The tests of `project` in quarantine, active or not, by test id and configuration.
    static func quarantined(_ session: PostgresSession, project: String) throws -> [QuarantinedTest] {
        try session.rows(
            """
            SELECT project, test, configuration, mode, reason, actor, since, until, automatic
            FROM quarantine WHERE project = \(project) ORDER BY test COLLATE "C", configuration COLLATE "C"
            """
        ).map { row in
            let (project, test, configuration, mode, reason, actor, since, until, automatic) = try row.decode(
                (String, String, String, String, String, String, Double, Double?, Int).self)
            return QuarantinedTest(
                project: project, test: test, configuration: configuration,
                mode: QuarantineMode(rawValue: mode) ?? .mute, reason: reason, by: actor, since: since, until: until,
                automatic: automatic != 0)
        }
    }
}
