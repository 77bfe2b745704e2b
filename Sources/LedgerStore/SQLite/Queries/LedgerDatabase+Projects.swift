import GRDB
import LedgerCore

extension LedgerDatabase {
    /// The projects with runs, with how many runs and when the newest started.
    /// - Returns: one entry per project, the one with the newest run first.
    /// - Throws: any SQLite error.
    public func projects() throws -> [ProjectListing] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT project, count(*) AS runs, max(startedAt) AS latest FROM run WHERE kind IS NULL
                    GROUP BY project
                    ORDER BY max(startedAt) DESC, project
                    """
            ).map { ProjectListing(project: $0["project"], runs: $0["runs"], latestRun: iso8601($0["latest"])) }
        }
    }
}
