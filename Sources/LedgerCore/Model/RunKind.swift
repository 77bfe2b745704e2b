/// What a run is for, when it is not a run of the suite: its attempts are kept in each test's
/// history, and the run is left out of every report's window.
public enum RunKind: String, Codable, Sendable, CaseIterable {
    /// Runs of a flaky test that prove (or disprove) its fix: `testledger verify`'s.
    case verification
}
