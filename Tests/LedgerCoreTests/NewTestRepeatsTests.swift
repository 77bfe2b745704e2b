import LedgerCore
import Testing

/// `record --repeat-new`: the repeat schedule, the budget and the verdict on each new test.
@Suite struct NewTestRepeatsTests {
    static let failed = AttemptState.ended(.failed)
    static let passed = AttemptState.ended(.passed)
    static let crashed = AttemptState.ended(.crashed)
    typealias Batch = RetrySchedule.Batch

    @Test func repeatsRunWhateverEachAttemptEndsAs() {
        var schedule = RetrySchedule(repeating: ["A": [Self.passed], "B": [Self.failed, Self.passed]], times: 2)
        #expect(schedule.next() == Batch(tests: ["A"], offset: 1), "the fewest attempts first")
        schedule.take(Batch(tests: ["A"], offset: 1), attempts: ["A": [Self.passed, Self.failed]])
        #expect(schedule.next() == Batch(tests: ["A", "B"], offset: 2), "a failed repeat does not stop its test")
        schedule.take(
            Batch(tests: ["A", "B"], offset: 2),
            attempts: ["A": [Self.passed, Self.failed, Self.passed], "B": [Self.failed, Self.passed, Self.passed]])
        #expect(schedule.next() == Batch(tests: ["B"], offset: 3))
        schedule.take(
            Batch(tests: ["B"], offset: 3), attempts: ["B": [Self.failed, Self.passed, Self.passed, Self.crashed]])
        #expect(schedule.next() == nil)
        #expect(schedule.added("A") == 2 && schedule.added("B") == 2)
    }

    @Test func aTestThatCrashesARepeatRunsAloneAfterIt() {
        var schedule = RetrySchedule(repeating: ["A": [Self.passed], "B": [Self.passed]], times: 2)
        schedule.take(Batch(tests: ["A", "B"], offset: 1), attempts: ["A": [Self.passed, Self.crashed]])
        #expect(schedule.next() == Batch(tests: ["A"], offset: 2), "B never ran: A crashed the process")
    }

    @Test func stoppingLeavesWhatIsDueUnrun() {
        var schedule = RetrySchedule(repeating: ["A": [Self.passed], "B": [Self.passed]], times: 3)
        schedule.take(
            Batch(tests: ["A", "B"], offset: 1),
            attempts: ["A": [Self.passed, Self.passed], "B": [Self.passed, Self.passed]])
        schedule.stop()
        #expect(schedule.next() == nil)
        let outcome = NewTestRepeats.Outcome(
            attempts: schedule.attempts, repeats: 3, added: schedule.added, beyond: ["C"], budget: 60)
        #expect(outcome.unproven == ["A", "B", "C"] && outcome.proven.isEmpty && !outcome.failsTheJob)
        #expect(outcome.lines == ["testledger: new tests unproven (beyond the 60 s budget): A, B, C"])
    }

    @Test func theBudgetTakesTheCheapestTestsFirstAndStopsAtTheFirstThatDoesNotFit() {
        let seconds = ["A/slow": 10.0, "A/fast": 1, "A/mid": 3, "A/also": 3]
        let within = NewTestRepeats.within(budget: 30, repeats: 5, seconds: seconds)
        #expect(within.chosen == ["A/also", "A/fast"], "5 + 15 fit; A/mid's 15 more would make 35")
        #expect(within.beyond == ["A/mid", "A/slow"])
        let unbounded = NewTestRepeats.within(budget: nil, repeats: 5, seconds: seconds)
        #expect(unbounded.chosen == seconds.keys.sorted() && unbounded.beyond.isEmpty)
    }

    @Test func aFailureInAnyRunFailsTheJobAndNamesTheTest() {
        let outcome = NewTestRepeats.Outcome(
            attempts: [
                "A/testNewFlaky": [Self.passed, Self.passed, Self.failed, Self.passed, Self.passed, Self.passed],
                "A/testStable": Array(repeating: Self.passed, count: 6),
            ],
            repeats: 5, added: { _ in 5 }, beyond: [], budget: nil)
        #expect(outcome.failsTheJob)
        #expect(outcome.flaky == [.init(test: "A/testNewFlaky", failed: 1, runs: 6)])
        #expect(
            outcome.lines == [
                "testledger: flaky new test: A/testNewFlaky failed 1 of 6 runs: not ready to merge",
                "testledger: new tests proven (passed 6 of 6 runs): A/testStable",
            ])
    }

    @Test func nothingToCompareWithIsSaid() {
        let outcome = NewTestRepeats.Outcome(notRepeated: "no earlier run")
        #expect(!outcome.failsTheJob)
        #expect(outcome.lines == ["testledger: --repeat-new: nothing was repeated: no earlier run"])
        let none = NewTestRepeats.Outcome(attempts: [:], repeats: 5, added: { _ in 0 }, beyond: [], budget: nil)
        #expect(!none.failsTheJob && none.lines == ["testledger: --repeat-new: no new test to prove"])
    }
}
