import Foundation
import LedgerCore
import LedgerStore
import PostgresNIO

extension PostgresLedger {
    /// Changes to a project's quarantine take turns under this advisory lock, so that servers
    /// applying the policy at once log each change once.
    private static func lockQuarantine(of project: String, in session: PostgresSession) throws {
        try session.run("SELECT pg_advisory_xact_lock(hashtextextended('quarantine:' || \(project), 0))")
    }

    @discardableResult
    public func quarantine(_ entries: [QuarantinedTest], evidence: [String: String] = [:]) throws
        -> [QuarantineChange]
    {
        try transaction { session in
            for project in Set(entries.map(\.project)).sorted() { try Self.lockQuarantine(of: project, in: session) }
            return try QuarantinedTest.quarantining(entries, evidence: evidence) { entry in
                try Self.quarantined(session, project: entry.project).first {
                    $0.test == entry.test && $0.configuration == entry.configuration
                }
            } store: { stored in
                try session.run(
                    """
                    INSERT INTO quarantine (project, test, configuration, mode, reason, actor, since, until, automatic)
                    VALUES (\(stored.project), \(stored.test), \(stored.configuration), \(stored.mode.rawValue),
                        \(stored.reason), \(stored.by), \(stored.since), \(stored.until), \(stored.automatic ? 1 : 0))
                    ON CONFLICT (project, test, configuration) DO UPDATE SET mode = excluded.mode,
                        reason = excluded.reason, actor = excluded.actor, since = excluded.since,
                        until = excluded.until, automatic = excluded.automatic
                    """)
            } log: {
                try Self.log($0, in: session)
            }
        }
    }

    @discardableResult
    public func release(
        _ tests: [String], project: String, configuration: String = QuarantinedTest.everyConfiguration,
        reason: String, by: String, at: Double, automatic: Bool = false, evidence: [String: String] = [:]
    ) throws -> [QuarantineChange] {
        try transaction { session in
            try Self.lockQuarantine(of: project, in: session)
            return try QuarantineChange.releasing(
                tests, project: project, configuration: configuration, reason: reason, by: by, at: at,
                automatic: automatic, evidence: evidence
            ) { test in
                try !session.rows(
                    """
                    DELETE FROM quarantine WHERE project = \(project) AND test = \(test)
                        AND configuration = \(configuration)
                    RETURNING 1
                    """
                ).isEmpty
            } log: {
                try Self.log($0, in: session)
            }
        }
    }

    public func quarantineLog(project: String) throws -> [QuarantineChange] {
        try withConnection { session in
            try session.rows(
                """
                SELECT id, project, test, configuration, action, mode, reason, actor, at, until, automatic, evidence
                FROM quarantine_log WHERE project = \(project) ORDER BY id
                """
            ).map { row in
                let columns = row.makeRandomAccess()
                return QuarantineChange(
                    id: try columns[0].decode(Int64.self), project: try columns[1].decode(String.self),
                    test: try columns[2].decode(String.self), configuration: try columns[3].decode(String.self),
                    action: QuarantineChange.Action(rawValue: try columns[4].decode(String.self)) ?? .change,
                    mode: try columns[5].decode(String?.self).flatMap(QuarantineMode.init(rawValue:)),
                    reason: try columns[6].decode(String.self), by: try columns[7].decode(String.self),
                    at: try columns[8].decode(Double.self), until: try columns[9].decode(Double?.self),
                    automatic: try columns[10].decode(Int.self) != 0, evidence: try columns[11].decode(String?.self))
            }
        }
    }

    public func resultsInQuarantine(_ entries: [QuarantinedTest]) throws -> [String: ResultsInQuarantine] {
        try transaction(readOnly: true) { session in
            var results: [String: ResultsInQuarantine] = [:]
            for entry in entries {
                let row = try session.rows(
                    """
                    SELECT count(*), count(*) FILTER (WHERE outcome IS NULL OR outcome IN ('failed', 'error', 'crashed'))
                    FROM (
                        SELECT DISTINCT ON (r.runId) r.outcome FROM result r
                        JOIN test t ON t.id = r.testId JOIN run ON run.id = r.runId
                        WHERE t.project = \(entry.project) AND t.key = \(entry.test) AND run.startedAt >= \(entry.since)
                            AND (\(entry.configuration) = '*' OR run.configuration = \(entry.configuration))
                        ORDER BY r.runId, r.attempt DESC) AS final
                    """
                ).first
                let (runs, failures) = try row?.decode((Int, Int).self) ?? (0, 0)
                results[entry.test] = ResultsInQuarantine(runs: runs, failures: failures)
            }
            return results
        }
    }

    private static func log(_ change: QuarantineChange, in session: PostgresSession) throws -> QuarantineChange {
        var logged = change
        logged.id =
            try session.value(
                """
                INSERT INTO quarantine_log
                    (project, test, configuration, action, mode, reason, actor, at, until, automatic, evidence)
                VALUES (\(change.project), \(change.test), \(change.configuration), \(change.action.rawValue),
                    \(change.mode?.rawValue), \(change.reason), \(change.by), \(change.at), \(change.until),
                    \(change.automatic ? 1 : 0), \(change.evidence))
                RETURNING id
                """) ?? 0
        return logged
    }
}
