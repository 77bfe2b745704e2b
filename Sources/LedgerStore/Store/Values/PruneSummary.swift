/// What `prune` removed, and what it kept.
public struct PruneSummary: Codable, Hashable, Sendable {
    /// Runs removed whole.
    public var runs: Int
    /// Results (attempts) removed, with everything recorded inside them.
    public var results: Int
    /// Old runs kept because they hold quarantined tests' results, which stay.
    public var keptRuns: Int

    package init(runs: Int = 0, results: Int = 0, keptRuns: Int = 0) {
        (self.runs, self.results, self.keptRuns) = (runs, results, keptRuns)
    }
}
