import LedgerCore

extension LedgerEnvironment {
    /// How failing sends to the server are retried: `retries` times, else `TESTLEDGER_RETRIES`,
    /// else 5; the first after `firstDelay` seconds, else `TESTLEDGER_RETRY_DELAY`, else 0.5;
    /// each delay twice the one before.
    /// - Parameters:
    ///   - retries: how many retries; `nil` to read `TESTLEDGER_RETRIES`.
    ///   - firstDelay: the delay before the first retry, in seconds; `nil` to read
    ///     `TESTLEDGER_RETRY_DELAY`.
    /// - Returns: the policy; a variable that is not a number counts as unset.
    public func resendPolicy(retries: Int? = nil, firstDelay: Double? = nil) -> ResendPolicy {
        ResendPolicy(
            retries: retries ?? self["TESTLEDGER_RETRIES"].flatMap { Int($0) } ?? 5,
            first: firstDelay ?? self["TESTLEDGER_RETRY_DELAY"].flatMap { Double($0) } ?? 0.5)
    }
}
