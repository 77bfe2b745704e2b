extension LedgerEnvironment {
    /// The variables `testledger record` sets for a runner that has a TestLedger module (Bacon's,
    /// `Formatters/bacon`), which acts on them in its own process: a module for another runner
    /// reads the same names. A count of 0 is set too, so that `record --retries 0` wins over an
    /// inherited variable.
    public enum Module {
        /// `N`: run a failed test again, up to N more times, until it passes; each run is the
        /// test's next attempt.
        public static let testRetries = "TESTLEDGER_TEST_RETRIES"
        /// `I/N`: run only shard I of N.
        public static let shard = "TESTLEDGER_SHARD"
        /// A file holding the shard plan (`testledger shard plan --format json`); a test the plan
        /// does not name is placed by the module, the same way on every machine.
        public static let shardPlan = "TESTLEDGER_SHARD_PLAN"
        /// `N`: run each new test (one ``knownTests`` does not name) N more times after it passes.
        public static let repeatNew = "TESTLEDGER_REPEAT_NEW"
        /// A file holding a JSON array of the test ids the base branch ran.
        public static let knownTests = "TESTLEDGER_KNOWN_TESTS"
        /// The seconds the repeats may take together.
        public static let repeatNewBudget = "TESTLEDGER_REPEAT_NEW_BUDGET"
        /// A file holding the quarantine in force (`testledger quarantine list --format json`):
        /// skipped tests do not run; a muted test's failure does not fail the command.
        public static let quarantine = "TESTLEDGER_QUARANTINE"

        /// `N`: `testledger verify` runs only the tests ``verifyTests`` names, each up to N times
        /// until it fails; each run is the test's next attempt.
        public static let verify = "TESTLEDGER_VERIFY"
        /// A file holding a JSON array of the test ids a verification runs.
        public static let verifyTests = "TESTLEDGER_VERIFY_TESTS"

        /// Every variable a module reads from `record` and `verify`.
        public static let all = [
            testRetries, shard, shardPlan, repeatNew, knownTests, repeatNewBudget, quarantine, verify, verifyTests,
        ]
    }
}
