import LedgerDelivery
import Testing

@Suite struct TerminalProgressTests {
    @Test func progressIsOffOutsideATerminalInCIAndWhenAskedSo() {
        // The test's standard error is not a terminal here; each rule is checked on its own too.
        #expect(!TerminalProgress.isWanted(environment: ["CI": "true", "TERM": "xterm"]))
        #expect(!TerminalProgress.isWanted(environment: ["TESTLEDGER_PROGRESS": "never"]))
        #expect(!TerminalProgress.isWanted(environment: ["TERM": "dumb"]))
    }
}
