/// What the server answers to an upload: what it stored. A wire contract, as the event stream is:
/// the server writes it and the uploaders (the CLI, the library) read it.
public struct IngestReceipt: Codable, Hashable, Sendable {
    /// The name of the format the upload was read as, such as `ledger` or `junit`.
    public var format: String
    /// The ids of the runs the upload touched, in the order they first appeared.
    public var runs: [String]
    /// Test attempts newly stored.
    public var results: Int
    /// Attempts the server already had: a retried upload stores nothing twice.
    public var alreadyStored: Int
    /// Attempts that never ended and were stored as crashed.
    public var crashed: Int
    /// What was skipped in the upload (events of unknown types, say), each naming where.
    public var warnings: [String]

    /// Creates a receipt.
    /// - Parameters:
    ///   - format: the name of the format the upload was read as.
    ///   - runs: the ids of the runs the upload touched.
    ///   - results: test attempts newly stored.
    ///   - alreadyStored: attempts the server already had.
    ///   - crashed: attempts stored as crashed.
    ///   - warnings: what was skipped.
    public init(format: String, runs: [String], results: Int, alreadyStored: Int, crashed: Int, warnings: [String]) {
        self.format = format
        self.runs = runs
        self.results = results
        self.alreadyStored = alreadyStored
        self.crashed = crashed
        self.warnings = warnings
    }
}
