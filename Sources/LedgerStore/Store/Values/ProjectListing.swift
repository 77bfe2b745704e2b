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
