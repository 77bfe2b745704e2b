import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// `report failures`: the failing attempts of the window's runs, grouped by cause
    /// (``FailureGrouping``). The runs' summaries name the tests that failed an attempt, so only
    /// those tests' results are read.
    ///
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - including: which tests' failures count, by test id; all by default.
    /// - Returns: the groups, the largest first; none for an empty store.
    /// - Throws: any SQLite error.
    public func failureGroups(
        project: String?, runs count: Int, since: Double?, including: (String) -> Bool = { _ in true }
    ) throws -> [FailureGroup] {
        guard let project = try project ?? latestProject() else { return [] }
        return try failureGroups(
            of: try windowRuns(project: project, count: count, since: since), including: including)
    }

    /// The failing attempts of `runs` whose tests are included, grouped by cause.
    func failureGroups(of runs: [WindowRun], including: (String) -> Bool) throws -> [FailureGroup] {
        let samples = try writer.read { db in
            var failing: [(run: WindowRun, test: Int64)] = []
            try forEachSummary(of: runs, seconds: false, in: db) { run, summary in
                let entries = summary.entries
                for index in 0..<entries.count where entries.code(index).anyFailed {
                    failing.append((run, entries.testID(index)))
                }
                return true
            }
            let names = try testInfo(ids: Array(Set(failing.map(\.test))), in: db)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT r.outcome,
                        coalesce(
                            (SELECT message FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1), r.message),
                        (SELECT file FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1),
                        (SELECT line FROM issue WHERE resultId = r.id ORDER BY id LIMIT 1)
                    FROM result r
                    WHERE r.runId = ? AND r.testId = ?
                        AND (r.outcome IS NULL OR r.outcome IN ('failed', 'error', 'crashed'))
                    ORDER BY r.attempt
                    """)
            var samples: [FailureSample] = []
            for (run, test) in failing where including(names[test]?.key ?? "#\(test)") {
                let rows = try Row.fetchAll(statement, arguments: [run.row, test])
                for row in rows {
                    let outcome: String? = row[0]
                    samples.append(
                        FailureSample(
                            test: names[test]?.key ?? "#\(test)", run: run.id, at: run.startedAt,
                            message: row[1] ?? outcome ?? "crashed", file: row[2], line: row[3]))
                }
            }
            return samples
        }
        return FailureGrouping.groups(samples)
    }
}
