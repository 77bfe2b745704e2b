/// What the server answers to an upload: what it stored.
public struct IngestReceipt: Codable, Hashable, Sendable {
    public var format: String
    public var runs: [String]
    public var results: Int
    /// Attempts the server already had: a retried upload stores nothing twice.
    public var alreadyStored: Int
    public var crashed: Int
    public var warnings: [String]

    public init(format: String, runs: [String], results: Int, alreadyStored: Int, crashed: Int, warnings: [String]) {
        self.format = format
        self.runs = runs
        self.results = results
        self.alreadyStored = alreadyStored
        self.crashed = crashed
        self.warnings = warnings
    }
}
