/// What one ingest stored.
public struct IngestSummary: Equatable, Sendable {
    /// The runs the input touched, in the order they first appeared.
    public var runs: [String] = []
    /// Test attempts newly stored.
    public var results = 0
    /// Test attempts that were already stored and so were left as they were.
    public var alreadyStored = 0
    /// Attempts that never ended and were stored as crashed.
    public var crashed = 0
    /// Events skipped with a warning (unknown types).
    public var warnings: [String] = []

    /// Creates an empty summary: nothing stored yet.
    public init() {}
}
