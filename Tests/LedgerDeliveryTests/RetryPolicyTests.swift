import LedgerCore
import LedgerDelivery
import Testing

@Suite struct RetryPolicyTests {
    @Test func retriesComeFromWhatIsGivenThenTheVariablesThenTheDefaults() {
        #expect(LedgerEnvironment([:]).retryPolicy().delays == [0.5, 1, 2, 4, 8])
        let configured: LedgerEnvironment = ["TESTLEDGER_RETRIES": "2", "TESTLEDGER_RETRY_DELAY": "0.01"]
        #expect(configured.retryPolicy().delays == [0.01, 0.02])
        #expect(configured.retryPolicy(retries: 3, firstDelay: 1).delays == [1, 2, 4])
    }

    @Test func onlyTimeoutsThrottlingAndServerErrorsAreTriedAgain() {
        #expect(RetryPolicy.isRetryable(status: 500) && RetryPolicy.isRetryable(status: 503))
        #expect(RetryPolicy.isRetryable(status: 408) && RetryPolicy.isRetryable(status: 429))
        #expect(!RetryPolicy.isRetryable(status: 400) && !RetryPolicy.isRetryable(status: 401))
        #expect(!RetryPolicy.isRetryable(status: 201))
    }

    @Test func delaysDoubleAndStopDoublingAtTwoToTheTwentieth() {
        #expect(RetryPolicy(retries: 0).delays.isEmpty && RetryPolicy(retries: -1).delays.isEmpty)
        let long = RetryPolicy(retries: 23, first: 1).delays
        #expect(Array(long.prefix(3)) == [1, 2, 4])
        let cap = Double(1 << 20)
        #expect(Array(long.suffix(3)) == [cap, cap, cap])
    }
}
