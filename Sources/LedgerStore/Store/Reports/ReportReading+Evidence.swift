import LedgerCore

extension ReportReading {
    /// Every attempt of `tests` (ids) in `runs`, with its activities, checks, captures and issues,
    /// its run's host and what ran beside and before it: what a culprit compares. Each store scans
    /// the attempts its own way; the rest is written once, over ``StoreReader``.
    package func evidenceRows(tests: [String], project: String, runs: [WindowRun]) throws -> EvidenceRows {
        var rows = EvidenceRows()
        rows.attempts = try evidenceAttempts(tests: tests, project: project, runs: runs)
        rows.neighbourhood = try neighbourhood(around: rows.attempts, runs: runs)
        let results = rows.attempts.map(\.id)
        rows.activities = try activityRows(results: results)
        let reader = storeReader
        rows.checks = try reader.detailRows(
            "resultId, activityId, name, expect, held, waited, timeout, at", of: "predicate", results: results,
            orderedBy: "at"
        ).map { row in
            EvidenceRows.Check(
                result: try row.required(row.int64, "resultId"), activity: try row.int64("activityId"),
                name: try row.required(row.string, "name"), expect: try row.required(row.string, "expect"),
                held: try row.required(row.int64, "held") != 0, waited: try row.required(row.double, "waited"),
                timeout: try row.required(row.double, "timeout"), at: try row.required(row.double, "at"))
        }
        rows.captures = try reader.detailRows(
            "resultId, activityId, verifier, fields, at", of: "capture", results: results, orderedBy: "at"
        ).map { row in
            EvidenceRows.Capture(
                result: try row.required(row.int64, "resultId"), activity: try row.int64("activityId"),
                verifier: try row.required(row.string, "verifier"), fields: try row.string("fields"),
                at: try row.required(row.double, "at"))
        }
        rows.issues = try reader.detailRows(
            "resultId, at, message, file, line", of: "issue", results: rows.failingAttemptIDs, orderedBy: "at"
        ).map { row in
            EvidenceRows.Issue(
                result: try row.required(row.int64, "resultId"), at: try row.required(row.double, "at"),
                message: try row.required(row.string, "message"), file: try row.string("file"),
                line: try row.int("line"))
        }
        return rows
    }

    /// For each of `attempts` (rows), the row of the test stored just before it in its run and
    /// process, another test's; an attempt with none is left out. Walks back from each attempt's
    /// row in `result_by_run`.
    package func precedingTests(of attempts: [Int64]) throws -> [Int64: Int64] {
        guard !attempts.isEmpty else { return [:] }
        let reader = storeReader
        let rows = try reader.rows(
            """
            SELECT r.id AS id, (SELECT p.testId FROM result p
                WHERE p.runId = r.runId AND p.id < r.id AND p.testId <> r.testId
                    AND \(reader.dialect.same("p.process", "r.process"))
                ORDER BY p.id DESC LIMIT 1) AS preceding
            FROM result r WHERE \(reader.dialect.inList("r.id", 1))
            """, [.integers(attempts)])
        var found: [Int64: Int64] = [:]
        for row in rows {
            if let test = try row.int64("preceding") { found[try row.required(row.int64, "id")] = test }
        }
        return found
    }

    /// The activities of `results` (rows), each with its result's row, by result and then in the
    /// order they started.
    package func activityRows(results: [Int64]) throws -> [(result: Int64, activity: StoredActivity)] {
        try storeReader.detailRows(
            "resultId, id, parentId, name, startedAt, endedAt, outcome, key", of: "activity", results: results,
            orderedBy: "startedAt"
        ).map { row in
            (
                try row.required(row.int64, "resultId"),
                StoredActivity(
                    id: try row.required(row.int64, "id"), parent: try row.int64("parentId"),
                    name: try row.string("name"),
                    started: try row.required(row.double, "startedAt"), ended: try row.double("endedAt"),
                    outcome: try row.string("outcome"), key: try row.required(row.string, "key"))
            )
        }
    }
}

extension StoreReader {
    /// `columns` of the rows of `table` (a result's details) that belong to `results`, by result,
    /// then in `order`, then in the order stored.
    func detailRows(_ columns: String, of table: String, results: [Int64], orderedBy order: String) throws
        -> [any NamedColumns]
    {
        guard !results.isEmpty else { return [] }
        return try rows(
            """
            SELECT \(columns) FROM \(table)
            WHERE \(dialect.inList("resultId", 1)) ORDER BY resultId, \(order), id
            """, [.integers(results)])
    }
}
