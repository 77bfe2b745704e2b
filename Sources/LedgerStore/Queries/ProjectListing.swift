import GRDB
import LedgerCore

/// A project in `GET /api/v1/projects`.
public struct ProjectListing: Codable, Hashable, Sendable {
    /// The project's name.
    public var project: String
    /// How many runs of it are stored.
    public var runs: Int
    /// When its newest run started (ISO 8601); a time, not a run id.
    public var latestRun: String

    package init(project: String, runs: Int, latestRun: String) {
        (self.project, self.runs, self.latestRun) = (project, runs, latestRun)
    }
}

extension LedgerDatabase {
    /// The projects with runs, with how many runs and when the newest started.
    /// - Returns: one entry per project, the one with the newest run first.
    /// - Throws: any SQLite error.
    public func projects() throws -> [ProjectListing] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT project, count(*), max(startedAt) FROM run GROUP BY project
                    ORDER BY max(startedAt) DESC, project
                    """
            ).map { ProjectListing(project: $0[0], runs: $0[1], latestRun: iso8601($0[2])) }
        }
    }
}
