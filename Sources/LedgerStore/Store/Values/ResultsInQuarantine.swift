/// What a quarantined test did while in quarantine.
public struct ResultsInQuarantine: Hashable, Sendable {
    /// Runs it had a result in since it was quarantined.
    public var runs: Int
    /// Those whose final attempt failed, erred or crashed.
    public var failures: Int

    package init(runs: Int, failures: Int) {
        (self.runs, self.failures) = (runs, failures)
    }
}
