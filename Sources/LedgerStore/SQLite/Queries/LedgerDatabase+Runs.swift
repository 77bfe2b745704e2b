import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// The newest runs first, optionally of one project.
    /// - Parameters:
    ///   - project: only runs of this project; every project's when `nil`.
    ///   - limit: how many runs at most; a negative number means all.
    /// - Returns: the runs with their counts, newest first.
    /// - Throws: any SQLite error.
    public func runs(project: String? = nil, limit: Int = 20) throws -> [RunListing] {
        try runs(project: project, id: nil, limit: limit)
    }

    /// One run by id, with its counts.
    /// - Parameter id: the run's id.
    /// - Returns: the run, or `nil` when no run has that id.
    /// - Throws: any SQLite error.
    public func run(id: String) throws -> RunListing? {
        try runs(project: nil, id: id, limit: 1).first
    }

    /// The project of one run by id, without counting its results.
    /// - Parameter id: the run's id.
    /// - Returns: its project, or `nil` when no run has that id.
    /// - Throws: any SQLite error.
    public func project(ofRun id: String) throws -> String? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT project FROM run WHERE uuid = ?", arguments: [id])
        }
    }

    /// Each run's counts come from its summary; only its failing tests' rows are read, to find the
    /// muted ones. A run without a summary is counted from its results.
    private func runs(project: String?, id: String?, limit: Int) throws -> [RunListing] {
        try writer.read { db in
            let chosen = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM run WHERE (?1 IS NULL OR project = ?1) AND (?3 IS NULL OR uuid = ?3)
                    ORDER BY startedAt DESC, id DESC LIMIT ?2
                    """, arguments: [project, limit, id])
            return try chosen.map { run in
                guard let tally = try Self.summaryTally(run: run["id"], in: db) else {
                    return try Self.countedFromResults(run: run["uuid"], in: db)
                }
                return RunListing(row: run, tally: tally)
            }
        }
    }

    private static func summaryTally(run: Int64, in db: Database) throws -> SummaryTally? {
        var statement = FastStatement(
            try db.cachedStatement(sql: "SELECT outcomes, seconds FROM run_summary WHERE runId = ?"))
        statement.bind(run)
        var failing: [Int64] = []
        let summarised = try statement.row(in: db) { row in
            row.withBlob(0) { outcomes in
                row.withBlob(1) { seconds in
                    let entries = SummaryEntries(bytes: outcomes)
                    var tally = SummaryTally()
                    for index in 0..<entries.count {
                        let code = entries.code(index)
                        tally.add(code, seconds: SummaryEntries.seconds(index, in: seconds))
                        if code.final.isFailure { failing.append(entries.testID(index)) }
                    }
                    return tally
                }
            }
        }
        guard var tally = summarised else { return nil }
        if !failing.isEmpty {
            tally.muted =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(DISTINCT testId) FROM result
                        WHERE runId = ? AND testId IN (SELECT value FROM json_each(?)) AND muted != 0
                        """, arguments: [run, jsonArray(failing)]) ?? 0
        }
        return tally
    }

    /// One run's line counted from its results, for a run stored without a summary.
    private static func countedFromResults(run uuid: String, in db: Database) throws -> RunListing {
        let row = try Row.fetchOne(
            db,
            sql: """
                WITH chosen AS (SELECT * FROM run WHERE uuid = ?),
                final AS (
                    SELECT r.runId, r.testId, r.outcome,
                        max(r.attempt) AS attempts,
                        sum(coalesce(r.duration, 0)) AS seconds,
                        sum(r.outcome IN ('failed', 'error', 'crashed')) > 0 AS anyFailure,
                        sum(r.muted) > 0 AS muted
                    FROM chosen CROSS JOIN result r ON r.runId = chosen.id
                    GROUP BY r.runId, r.testId)
                SELECT chosen.*,
                    count(final.testId) AS tests,
                    coalesce(sum(final.outcome IN ('passed', 'expectedFailure')), 0) AS passed,
                    coalesce(sum(final.outcome IN ('failed', 'error')), 0) AS failed,
                    coalesce(sum(final.outcome = 'skipped'), 0) AS skipped,
                    coalesce(sum(final.testId IS NOT NULL AND (final.outcome = 'crashed' OR final.outcome IS NULL)), 0)
                        AS crashed,
                    coalesce(sum(final.anyFailure AND final.outcome IN ('passed', 'expectedFailure')), 0) AS flaky,
                    coalesce(sum(final.seconds), 0) AS seconds,
                    coalesce(sum(final.muted AND coalesce(final.outcome IN ('failed', 'error', 'crashed'), 1)), 0)
                        AS muted
                FROM chosen LEFT JOIN final ON final.runId = chosen.id
                GROUP BY chosen.id
                """, arguments: [uuid])
        guard let row else { throw StoreError.noSuchRun(uuid) }
        return RunListing(row: row)
    }
}

/// What a run's tests came to, from the codes and seconds of its summary.
private struct SummaryTally {
    var tests = 0, passed = 0, failed = 0, skipped = 0, crashed = 0, flaky = 0, muted = 0
    var seconds = 0.0

    mutating func add(_ code: RunSummary.Code, seconds testSeconds: Double) {
        tests += 1
        seconds += testSeconds
        switch code.final {
        case .passed, .expectedFailure:
            passed += 1
            if code.anyFailed { flaky += 1 }
        case .failed, .error: failed += 1
        case .skipped: skipped += 1
        case .crashed: crashed += 1
        }
    }
}

extension RunListing {
    fileprivate init(row: Row, tally: SummaryTally) {
        self.init(
            row: row,
            counts: (
                tests: tally.tests, passed: tally.passed, failed: tally.failed, skipped: tally.skipped,
                crashed: tally.crashed, flaky: tally.flaky, muted: tally.muted
            ), seconds: tally.seconds)
    }

    /// Reads a row of the runs query. The final outcome is the last attempt's: SQLite
    /// returns the bare `outcome` column from the row holding `max(attempt)`, as long as that is
    /// the query's only `max` or `min`.
    init(row: Row) {
        self.init(
            row: row,
            counts: (
                tests: row["tests"], passed: row["passed"], failed: row["failed"], skipped: row["skipped"],
                crashed: row["crashed"], flaky: row["flaky"], muted: row["muted"]
            ), seconds: row["seconds"])
    }

    private init(
        row: Row, counts: (tests: Int, passed: Int, failed: Int, skipped: Int, crashed: Int, flaky: Int, muted: Int),
        seconds: Double
    ) {
        let reportedTests: Int? = row["reportedTests"]
        self.init(
            id: row["uuid"], project: row["project"], source: row["source"], started: row["startedAt"],
            ended: row["endedAt"], runOutcome: row["outcome"], revision: row["revision"], branch: row["branch"],
            build: row["ciBuild"], configuration: row["configuration"], counts: counts, seconds: seconds,
            reported: reportedTests.map {
                LedgerEvent.RunnerCounts(
                    tests: $0, failures: row["reportedFailures"] ?? 0, errors: row["reportedErrors"] ?? 0)
            }, kind: (row["kind"] as String?).flatMap(RunKind.init(rawValue:)), labels: row["labels"])
    }

    /// A run's line from its columns and counts, as a store's runs query reads them.
    package init(
        id: String, project: String, source: String, started: Double, ended: Double?, runOutcome: String?,
        revision: String?, branch: String?, build: String?, configuration: String,
        counts: (tests: Int, passed: Int, failed: Int, skipped: Int, crashed: Int, flaky: Int, muted: Int),
        seconds: Double, reported: LedgerEvent.RunnerCounts?, kind: RunKind? = nil, labels: String? = nil
    ) {
        self.id = id
        self.project = project
        self.source = source
        startedAt = iso8601(started)
        endedAt = ended.map(iso8601)
        status = ended == nil ? .interrupted : (runOutcome.flatMap(RunOutcome.init(rawValue:)) ?? .finished)
        self.revision = revision
        self.branch = branch
        self.build = build
        self.configuration = configuration
        (tests, passed, failed, skipped) = (counts.tests, counts.passed, counts.failed, counts.skipped)
        (crashed, flaky, muted) = (counts.crashed, counts.flaky, counts.muted)
        self.reported = reported
        self.kind = kind
        self.labels = labels.flatMap(Self.labels(fromJSON:))
        // A sum's last bits depend on the order the database added in: kept to the microsecond.
        duration = ended.map { $0 - started } ?? (seconds * 1e6).rounded() / 1e6
    }

    /// The labels of a run's `labels` column: a JSON object of strings.
    private static func labels(fromJSON text: String) -> [String: String]? {
        guard case .object(let fields)? = JSONValue(jsonText: text) else { return nil }
        let labels = fields.compactMapValues { value -> String? in
            if case .string(let text) = value { return text }
            return nil
        }
        return labels.isEmpty ? nil : labels
    }
}
