/// How many of the newest runs a report judges by.
public enum ReportWindow {
    /// When neither a flag nor `.testledger.yml`'s `window` says: the newest 30 runs, by every
    /// door (the CLI, the server's API and dashboard, MCP, `record`).
    public static let defaultRuns = 30
}
