// `LedgerEvent` and its payloads are generated from LedgerEvents.schema; this is the enumeration
// of an `issue`'s `kind`.

extension LedgerEvent {
    /// What kind of problem an `issue` reports.
    public enum IssueKind: String, Codable, Hashable, Sendable {
        /// An expectation or assertion did not hold.
        case assertion
        /// The test threw or reported an error.
        case error
        /// The process running the test crashed.
        case crash
        /// The test checked nothing, such as a Bacon `it` with no requirement in it.
        case missing
    }
}
