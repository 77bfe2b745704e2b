/// What `verify` is asked, as its flags say it.
package struct VerificationOptions: Sendable {
    /// The chance wanted of catching a test still failing at its rate.
    package var confidence = 0.95
    /// The failure rate to rule out; the ledger's, over its window, when `nil`.
    package var rate: Double?
    /// The rate to show the test below, sizing the runs; its own rate when `nil`.
    package var targetRate: Double?
    package var maxRuns = 200
    /// The seconds the runs may take, building aside.
    package var budget: Double?
    /// Run until the test fails, at most ⌈3 / p⌉ runs.
    package var reproduce = false
    /// Busy threads run beside the tests.
    package var stress = 0
    /// Run a test alone even where it fails only beside other tests.
    package var alone = false

    package init() {}
}
