import Foundation
import LedgerCore
import LedgerRecording
import Testing

@Suite struct RecordDecisionTests {
    @Test func mutedTestsAreNotRetriedAndTooManyFailuresRetryNothing() {
        #expect(RetrySelection(failing: [], muted: [], limit: 20) == .nothingFailed)
        #expect(RetrySelection(failing: ["A/muted"], muted: ["A/muted"], limit: 20) == .nothingFailed)
        #expect(
            RetrySelection(failing: ["A/a", "A/muted", "A/b"], muted: ["A/muted"], limit: 2) == .retry(["A/a", "A/b"]))
        guard case .tooMany(let note) = RetrySelection(failing: ["A/a", "A/b", "A/c"], muted: [], limit: 2) else {
            Issue.record("three failures over a limit of two retried")
            return
        }
        #expect(note.contains("3 tests failed, more than --retry-limit 2"))
        // The limit counts the tests that would be retried, not the muted ones.
        #expect(
            RetrySelection(failing: ["A/a", "A/m1", "A/m2"], muted: ["A/m1", "A/m2"], limit: 1) == .retry(["A/a"]))
    }

    @Test func onlyKnownFlakyTestsAreRetriedWhenAsked() {
        let known: Set = ["A/flaky"]
        #expect(
            RetrySelection(failing: ["A/flaky", "A/new"], muted: [], limit: 20, knownFlaky: known)
                == .retry(["A/flaky"], keptRed: ["A/new"]))
        #expect(
            RetrySelection(failing: ["A/new"], muted: [], limit: 20, knownFlaky: known)
                == .retry([], keptRed: ["A/new"]))
        // The limit counts every failure: many at once are a broken build, whatever the ledger knew.
        #expect(
            RetrySelection(failing: ["A/flaky", "A/n1", "A/n2"], muted: [], limit: 3, knownFlaky: known)
                == .retry(["A/flaky"], keptRed: ["A/n1", "A/n2"]))
        guard
            case .tooMany(let note) = RetrySelection(
                failing: ["A/flaky", "A/n1", "A/n2"], muted: [], limit: 2, knownFlaky: known)
        else {
            Issue.record("three failures over a limit of two retried")
            return
        }
        #expect(note.hasPrefix("3 tests failed"))
        // Left red, the command's failure stands even when every retried test passed.
        var outcome = RetryOutcome(passedOnRetry: [
            .init(test: "A/flaky", attempts: [.ended(.failed), .ended(.passed)])
        ])
        #expect(outcome.passesTheCommand)
        outcome.keptRed = ["A/new"]
        #expect(!outcome.passesTheCommand)
        #expect(outcome.lines.contains { $0.hasSuffix("(--retry-only known-flaky): A/new") }, "\(outcome.lines)")
    }

    @Test func onlyAFailureOfMutedTestsAloneIsForgiven() {
        let muted: Set = ["A/muted"]
        #expect(QuarantineEnforcement.settle(status: 1, failing: ["A/muted"], muted: muted) == (0, ["A/muted"]))
        #expect(QuarantineEnforcement.settle(status: 1, failing: ["A/muted", "A/real"], muted: muted).status == 1)
        // A signal or a build that ran no test says nothing of tests: kept.
        #expect(QuarantineEnforcement.settle(status: 130, failing: ["A/muted"], muted: muted).status == 130)
        #expect(QuarantineEnforcement.settle(status: 1, failing: [], muted: muted) == (1, []))
        #expect(QuarantineEnforcement.settle(status: 0, failing: [], muted: muted) == (0, []))
    }

    @Test func quarantineSkipsByArgumentExceptForAModule() {
        let enforcement = QuarantineEnforcement(
            [
                QuarantinedTest(
                    project: "App", test: "App.Cart/testSkipped", mode: .skip, reason: "", by: "", since: 0),
                QuarantinedTest(project: "App", test: "App.Cart/testMuted", mode: .mute, reason: "", by: "", since: 0),
            ], configuration: "")
        #expect(enforcement.skipped == ["App.Cart/testSkipped"] && enforcement.muted == ["App.Cart/testMuted"])
        let folder = URL(fileURLWithPath: "/tmp/x")
        let swift = enforcement.arguments(of: TestCommand(["swift", "test"], outputFolder: folder))
        #expect(swift.contains("--skip") && !swift.joined().contains("testMuted"))
        let bacon = ["bacon", "spec"]
        #expect(enforcement.arguments(of: TestCommand(bacon, outputFolder: folder)) == bacon)
    }

    @Test func aFailureInAFlakyTestsGroupIsAKnownFlakyOne() {
        let groups = FailureGrouping.groups([
            FailureSample(test: "A/flaky", run: "r1", at: 1, message: "connection reset by peer at 0x1"),
            FailureSample(test: "B/other", run: "r2", at: 2, message: "connection reset by peer at 0x2"),
            FailureSample(test: "A/flaky", run: "r3", at: 3, message: "not equal", file: "A.swift", line: 3),
            FailureSample(test: "C/broken", run: "r3", at: 3, message: "the cart is empty after 3 s"),
        ])
        let known = KnownFlakiness(tests: ["A/flaky"], groups: groups)
        #expect(known.signatures == ["connection reset by peer at <address>"])
        #expect(known.covers("A/flaky", message: nil))
        #expect(known.covers("D/new", message: "connection reset by peer at 0x7f3a\nmore"))
        #expect(!known.covers("D/new", message: "not equal"), "a short signature says nothing without its place")
        #expect(!known.covers("D/new", message: "the cart is empty after 3 s") && !known.covers("D/new", message: nil))
    }
}
