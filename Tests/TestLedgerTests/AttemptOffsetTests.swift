import LedgerCore
import LedgerTestSupport
import Testing

@testable import TestLedger

/// `TESTLEDGER_ATTEMPT_OFFSET`: a process that `record --retries` starts numbers its attempts
/// after those the run already has, XCTest and Swift Testing alike.
@Suite struct AttemptOffsetTests {
    let destination = MemoryDestination()

    @Test func theVariableIsReadAsACountOfAttempts() {
        #expect(LedgerEnvironment([:]).attemptOffset == 0)
        #expect(LedgerEnvironment(["TESTLEDGER_ATTEMPT_OFFSET": "2"]).attemptOffset == 2)
        #expect(LedgerEnvironment(["TESTLEDGER_ATTEMPT_OFFSET": "two"]).attemptOffset == 0)
        #expect(LedgerEnvironment(["TESTLEDGER_ATTEMPT_OFFSET": "-1"]).attemptOffset == 0)
        let metadata = RunMetadata(project: "Shop", revision: nil, branch: nil)
        let retry = LedgerEnvironment.forRecordedTests(
            run: "r", databasePath: "l", metadata: metadata, attemptOffset: 3)
        #expect(LedgerEnvironment(retry).attemptOffset == 3)
        let first = LedgerEnvironment.forRecordedTests(run: "r", databasePath: "l", metadata: metadata)
        #expect(first["TESTLEDGER_ATTEMPT_OFFSET"] == "0", "an offset inherited from outside does not leak in")
    }

    @Test func anXCTestCaseIsTheAttemptAfterTheOffset() {
        let recorder = Recorder(store: destination, attemptOffset: 2)
        let context = TestContext(library: .xctest, test: "M.S/t", attempt: 1, suite: "M.S", name: "t")
        recorder.xctestWillStart(context, at: 1)
        recorder.xctestFailed(message: "boom", file: nil, line: nil, at: 2)
        let current = recorder.context()
        recorder.xctestDidFinish(outcome: .failed, duration: 1, message: nil, at: 3)
        #expect(current?.attempt == 3, "activities and captures name the same attempt")
        #expect(destination.events.testStarts.map(\.attempt) == [3])
        #expect(destination.events.issues.map(\.attempt) == [3])
        #expect(destination.events.testEnds.map(\.attempt) == [3])
    }

    @Test func aSwiftTestingTestIsTheAttemptAfterTheOffset() throws {
        let recorder = Recorder(store: destination, attemptOffset: 1)
        let context = try #require(recorder.context(), "this test's own context")
        #expect(context.library == .swiftTesting)
        #expect(context.attempt == 2)
        #expect(Recorder(store: destination).context()?.attempt == 1)
    }
}
