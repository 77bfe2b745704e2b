import LedgerCore
import LedgerDelivery
import Testing

@Suite struct ResendPolicyTests {
    @Test func retriesComeFromWhatIsGivenThenTheVariablesThenTheDefaults() {
        #expect(LedgerEnvironment([:]).resendPolicy().delays == [0.5, 1, 2, 4, 8])
        let configured: LedgerEnvironment = ["TESTLEDGER_RETRIES": "2", "TESTLEDGER_RETRY_DELAY": "0.01"]
        #expect(configured.resendPolicy().delays == [0.01, 0.02])
        #expect(configured.resendPolicy(retries: 3, firstDelay: 1).delays == [1, 2, 4])
    }

    @Test func onlyTimeoutsThrottlingAndServerErrorsAreTriedAgain() {
        #expect(ResendPolicy.isRetryable(status: 500) && ResendPolicy.isRetryable(status: 503))
        #expect(ResendPolicy.isRetryable(status: 408) && ResendPolicy.isRetryable(status: 429))
        #expect(!ResendPolicy.isRetryable(status: 400) && !ResendPolicy.isRetryable(status: 401))
        #expect(!ResendPolicy.isRetryable(status: 201))
    }

    @Test func delaysDoubleAndStopDoublingAtTwoToTheTwentieth() {
        #expect(ResendPolicy(retries: 0).delays.isEmpty && ResendPolicy(retries: -1).delays.isEmpty)
        let long = ResendPolicy(retries: 23, first: 1).delays
        #expect(Array(long.prefix(3)) == [1, 2, 4])
        let cap = Double(1 << 20)
        #expect(Array(long.suffix(3)) == [cap, cap, cap])
    }
}
