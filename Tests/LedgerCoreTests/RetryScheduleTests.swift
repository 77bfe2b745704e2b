import LedgerCore
import LedgerTestSupport
import Testing

/// `RetrySchedule`: which failed tests `record --retries` runs again in each process, fed with
/// the attempts a store would hold after each one.
@Suite struct RetryScheduleTests {
    static let failed = AttemptState.ended(.failed)
    static let passed = AttemptState.ended(.passed)
    static let crashed = AttemptState.ended(.crashed)
    static let running = AttemptState.running
    typealias Batch = RetrySchedule.Batch

    @Test func anAttemptThatCrashedOrNeverEndedIsACrashAndEveryOtherFailingOneAFailure() {
        #expect(Self.running.isFailure && Self.running.isCrash, "its process is gone")
        #expect(Self.crashed.isFailure && Self.crashed.isCrash)
        for outcome in [Outcome.failed, .error] {
            #expect(AttemptState.ended(outcome).isFailure && !AttemptState.ended(outcome).isCrash, "\(outcome)")
        }
        for outcome in [Outcome.passed, .skipped, .expectedFailure] {
            #expect(!AttemptState.ended(outcome).isFailure && !AttemptState.ended(outcome).isCrash, "\(outcome)")
        }
    }

    @Test func testsWithAsManyAttemptsShareAProcessTheFewestFirst() {
        var schedule = RetrySchedule(
            attempts: ["A": [Self.failed], "B": [Self.failed, Self.failed], "C": [Self.failed]], retries: 2)
        #expect(schedule.next() == Batch(tests: ["A", "C"], offset: 1))
        schedule.take(
            Batch(tests: ["A", "C"], offset: 1),
            attempts: ["A": [Self.failed, Self.passed], "C": [Self.failed, Self.failed]])
        #expect(schedule.next() == Batch(tests: ["B", "C"], offset: 2), "A passed; B and C have had two attempts")
        schedule.take(
            Batch(tests: ["B", "C"], offset: 2),
            attempts: ["B": [Self.failed, Self.failed, Self.failed], "C": [Self.failed, Self.failed, Self.failed]])
        #expect(schedule.next() == Batch(tests: ["B"], offset: 3), "B has a retry left; C used both")
        schedule.take(
            Batch(tests: ["B"], offset: 3), attempts: ["B": [Self.failed, Self.failed, Self.failed, Self.passed]])
        #expect(schedule.next() == nil)
        #expect(schedule.passedOnRetry == ["A", "B"])
        #expect(schedule.stillFailing == ["C"])
        #expect(schedule.attempts["C"] == [Self.failed, Self.failed, Self.failed])
    }

    @Test func aTestThatCrashedRunsAloneFromThenOnBeforeTheOthers() {
        for crash in [Self.crashed, Self.running] {
            var schedule = RetrySchedule(attempts: ["A": [crash], "B": [Self.failed, Self.failed]], retries: 2)
            #expect(schedule.next() == Batch(tests: ["A"], offset: 1))
            schedule.take(Batch(tests: ["A"], offset: 1), attempts: ["A": [crash, Self.failed]])
            #expect(
                schedule.next() == Batch(tests: ["A"], offset: 2),
                "A failed without crashing and has had as many attempts as B, and still runs alone")
            schedule.take(Batch(tests: ["A"], offset: 2), attempts: ["A": [crash, Self.failed, Self.passed]])
            #expect(schedule.next() == Batch(tests: ["B"], offset: 2))
        }
    }

    @Test func aTestThatCrashesOnARetryRunsAloneNext() {
        var schedule = RetrySchedule(attempts: ["A": [Self.failed], "B": [Self.failed]], retries: 2)
        #expect(schedule.next() == Batch(tests: ["A", "B"], offset: 1))
        schedule.take(
            Batch(tests: ["A", "B"], offset: 1),
            attempts: ["A": [Self.failed, Self.running], "B": [Self.failed, Self.failed]])
        #expect(schedule.next() == Batch(tests: ["A"], offset: 2), "B had as many attempts, but A crashed")
    }

    @Test func aTestACrashKeptFromRunningRunsAgainWithoutSpendingARetry() {
        var schedule = RetrySchedule(attempts: ["A": [Self.failed], "B": [Self.failed]], retries: 1)
        #expect(schedule.next() == Batch(tests: ["A", "B"], offset: 1))
        // A crashed the process before B ran: the store has B's attempts as they were.
        schedule.take(
            Batch(tests: ["A", "B"], offset: 1), attempts: ["A": [Self.failed, Self.crashed], "B": [Self.failed]])
        #expect(schedule.next() == Batch(tests: ["B"], offset: 1), "B still has its one retry; A used it")
        schedule.take(Batch(tests: ["B"], offset: 1), attempts: ["B": [Self.failed, Self.passed]])
        #expect(schedule.next() == nil)
        #expect(schedule.passedOnRetry == ["B"])
        #expect(schedule.stillFailing == ["A"])
        #expect(schedule.abandoned.isEmpty)
    }

    @Test func whenNoTestOfAProcessRanEachRunsAloneAndOneThatLeavesNoAttemptIsGivenUp() {
        var schedule = RetrySchedule(attempts: ["A": [Self.failed], "B": [Self.failed]], retries: 2)
        #expect(schedule.next() == Batch(tests: ["A", "B"], offset: 1))
        schedule.take(Batch(tests: ["A", "B"], offset: 1), attempts: ["A": [Self.failed], "B": [Self.failed]])
        #expect(schedule.abandoned.isEmpty, "not given up before each ran alone")
        #expect(schedule.next() == Batch(tests: ["A"], offset: 1))
        schedule.take(Batch(tests: ["A"], offset: 1), attempts: [:])
        #expect(schedule.abandoned == ["A"])
        #expect(schedule.next() == Batch(tests: ["B"], offset: 1), "A is not tried again")
        schedule.take(Batch(tests: ["B"], offset: 1), attempts: ["B": [Self.failed, Self.passed]])
        #expect(schedule.next() == nil)
        #expect(schedule.passedOnRetry == ["B"])
        #expect(schedule.stillFailing == ["A"], "a test given up failed still")
    }

    @Test func aTestRunAloneThatLeavesNoAttemptIsGivenUpWithRetriesLeft() {
        var schedule = RetrySchedule(attempts: ["A": [Self.crashed]], retries: 5)
        #expect(schedule.next() == Batch(tests: ["A"], offset: 1))
        schedule.take(Batch(tests: ["A"], offset: 1), attempts: ["A": [Self.crashed]])
        #expect(schedule.abandoned == ["A"])
        #expect(schedule.next() == nil)
        #expect(schedule.attempts["A"] == [Self.crashed])
    }

    @Test func aTestStopsAtItsFirstPass() {
        var schedule = RetrySchedule(attempts: ["A": [Self.failed]], retries: 5)
        #expect(schedule.next() == Batch(tests: ["A"], offset: 1))
        schedule.take(Batch(tests: ["A"], offset: 1), attempts: ["A": [Self.failed, Self.passed]])
        #expect(schedule.next() == nil)
        #expect(schedule.passedOnRetry == ["A"] && schedule.stillFailing.isEmpty)
        #expect(schedule.attempts["A"] == [Self.failed, Self.passed])
    }

    @Test func aTestHasNoMoreThanItsRetries() {
        #expect(RetrySchedule(attempts: ["A": [Self.failed]], retries: 0).next() == nil)
        var schedule = RetrySchedule(attempts: ["A": [Self.failed, Self.failed]], retries: 2)
        var attempts = [Self.failed, Self.failed]
        for offset in [2, 3] {
            #expect(schedule.next() == Batch(tests: ["A"], offset: offset))
            attempts.append(Self.failed)
            schedule.take(Batch(tests: ["A"], offset: offset), attempts: ["A": attempts])
        }
        #expect(schedule.next() == nil, "two retries after the command's two attempts")
        #expect(schedule.stillFailing == ["A"] && schedule.passedOnRetry.isEmpty)
    }

    @Test func processesThatNeverRunAnythingEndAfterOneBatchPerTestAndOne() {
        let tests = ["A", "B", "C", "D"]
        var schedule = RetrySchedule(
            attempts: Dictionary(uniqueKeysWithValues: tests.map { ($0, [Self.failed]) }), retries: 100)
        var batches: [Batch] = []
        while let batch = schedule.next(), batches.count <= tests.count {
            batches.append(batch)
            schedule.take(batch, attempts: [:])
        }
        #expect(batches == [Batch(tests: tests, offset: 1)] + tests.map { Batch(tests: [$0], offset: 1) })
        #expect(schedule.next() == nil)
        #expect(schedule.abandoned == tests)
    }

    /// Runs `schedule` against processes scripted by `random`: each test of a batch in turn passes,
    /// fails, crashes the process (the tests after it never run), or is not run; or the process
    /// dies before any test. Checks every batch, and the end.
    @Test(arguments: 0..<300 as Range<UInt64>)
    func everyScheduleEndsWithinItsBoundWithNoTestOverItsRetries(seed: UInt64) {
        var random = SeededNumbers(seed: seed)
        let tests = (0..<Int.random(in: 1...6, using: &random)).map { "T\($0)" }
        let retries = Int.random(in: 0...4, using: &random)
        // What the command left: a failure, a crash, an attempt that never ended, or two failures.
        let command: [[AttemptState]] = [[Self.failed], [Self.crashed], [Self.running], [Self.failed, Self.failed]]
        var store: [String: [AttemptState]] = [:]
        for test in tests { store[test] = command[Int.random(in: 0..<command.count, using: &random)] }
        let before = store.mapValues(\.count)
        var crashedAlready = Set(tests.filter { store[$0]?.last?.isCrash == true })
        var schedule = RetrySchedule(attempts: store, retries: retries)
        let bound = tests.count * (retries + 2)
        var batches = 0
        while let batch = schedule.next() {
            batches += 1
            guard batches <= bound else { break }
            #expect(!batch.tests.isEmpty)
            for test in batch.tests {
                let attempts = store[test] ?? []
                #expect(attempts.count == batch.offset, "seed \(seed): \(test) had \(batch.offset) attempts")
                #expect(attempts.last?.isFailure != false, "seed \(seed): \(test) passed already")
                #expect(attempts.count - (before[test] ?? 0) < retries, "seed \(seed): \(test) used its retries")
                #expect(!schedule.abandoned.contains(test), "seed \(seed): \(test) was given up")
            }
            if batch.tests.contains(where: crashedAlready.contains) {
                #expect(batch.tests.count == 1, "seed \(seed): a test that crashed runs alone: \(batch.tests)")
            }
            if Int.random(in: 0..<10, using: &random) > 0 {
                for test in batch.tests {
                    let roll = Int.random(in: 0..<20, using: &random)
                    if roll < 2 { continue }  // not run: its filter matched nothing
                    let crash = roll < 5
                    let attempt =
                        crash ? [Self.crashed, Self.running][roll % 2] : roll < 12 ? Self.failed : Self.passed
                    store[test, default: []].append(attempt)
                    if crash {
                        crashedAlready.insert(test)
                        break
                    }
                }
            }
            schedule.take(batch, attempts: store.filter { batch.tests.contains($0.key) })
        }
        #expect(batches <= bound, "seed \(seed): \(batches) processes for \(tests.count) tests, \(retries) retries")
        #expect(schedule.next() == nil)
        for test in tests {
            let attempts = schedule.attempts[test] ?? []
            #expect(attempts == store[test], "seed \(seed): \(test)")
            let used = attempts.count - (before[test] ?? 0)
            #expect(used <= retries, "seed \(seed): \(test) had \(used) retries")
            let passed = attempts.last?.isFailure == false
            #expect(
                passed || used == retries || schedule.abandoned.contains(test),
                "seed \(seed): \(test) stopped with retries left: \(attempts)")
            #expect(schedule.passedOnRetry.contains(test) == passed, "seed \(seed): \(test)")
            #expect(schedule.stillFailing.contains(test) == !passed, "seed \(seed): \(test)")
        }
    }
}

extension RetryScheduleTests {
    /// `RetryOutcome`: what `record` says and exits with after retrying.
    @Suite struct RetryOutcomeTests {
        static let flaky = RetryOutcome.Retried(
            test: "App.Cart/testTotal", attempts: [.ended(.failed), .ended(.passed)])

        @Test func onlyRetriesThatAllPassedWithNothingElseWrongPassTheCommand() {
            #expect(RetryOutcome(passedOnRetry: [Self.flaky]).passesTheCommand)
            #expect(!RetryOutcome().passesTheCommand, "nothing was retried: the command failed otherwise")
            let spoiled: [RetryOutcome] = [
                RetryOutcome(passedOnRetry: [Self.flaky], stillFailing: [Self.flaky]),
                RetryOutcome(passedOnRetry: [Self.flaky], abandoned: ["App.Cart/testTax"]),
                RetryOutcome(passedOnRetry: [Self.flaky], notRetried: "too many"),
                RetryOutcome(passedOnRetry: [Self.flaky], crashedTheCommand: ["App.Cart/testTax"]),
                RetryOutcome(passedOnRetry: [Self.flaky], problems: ["retry-1/tests.xml: broken"]),
                RetryOutcome(passedOnRetry: [Self.flaky], interrupted: true),
            ]
            for outcome in spoiled { #expect(!outcome.passesTheCommand, "\(outcome)") }
        }

        @Test func theSummaryNamesEachTestWithItsAttemptsAUnfinishedOneCrashed() {
            #expect(RetryOutcome().lines.isEmpty)
            let outcome = RetryOutcome(
                passedOnRetry: [Self.flaky, .init(test: "App.Cart/testTax", attempts: [.running, .ended(.passed)])],
                stillFailing: [.init(test: "App.Pay/testCard", attempts: [.ended(.failed), .ended(.error)])],
                abandoned: ["App.Pay/testGone"], notRetried: "21 tests failed", crashedTheCommand: ["App.Cart/testTax"],
                interrupted: true)
            #expect(
                outcome.lines == [
                    "testledger: retries: nothing was retried: 21 tests failed",
                    "testledger: flaky in this run (passed on a retry): App.Cart/testTotal (failed, passed), "
                        + "App.Cart/testTax (crashed, passed)",
                    "testledger: failed on every retry: App.Pay/testCard (failed, error)",
                    "testledger: retries: could not run again (no test of that name ran): App.Pay/testGone",
                    "testledger: retries: interrupted; nothing more was retried",
                    "testledger: retries: App.Cart/testTax crashed the test process, so the tests after it never "
                        + "ran: the command's failure stands",
                ])
        }
    }
}
