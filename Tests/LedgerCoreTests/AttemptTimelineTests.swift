import LedgerCore
import Testing

@Suite struct AttemptTimelineTests {
    private func attempt(_ test: String, _ start: Double, _ length: Double?, _ outcome: Outcome?, attempt: Int = 1)
        -> RecordedAttempt
    {
        RecordedAttempt(test: test, attempt: attempt, startedAt: start, duration: length, outcome: outcome)
    }

    @Test func eachFailingAttemptGetsTheAttemptsThatOverlappedIt() {
        let attempts = [
            attempt("keeps", 10, 1, .failed),
            attempt("clears", 10.5, 0.2, .passed),
            attempt("before", 9, 1.0002, .passed),  // ends within the slack of keeps's start
            attempt("long", 8, 5, .passed),
            attempt("after", 11.0002, 1, .passed),
            attempt("keeps", 12, 1, .passed, attempt: 2),
            attempt("hangs", 12.5, nil, nil),
        ]
        let timelines = AttemptTimeline.failing(in: attempts, limit: 5)
        #expect(timelines.map(\.attempt.test) == ["keeps", "hangs"])
        #expect(timelines[0].beside.map(\.test) == ["long", "clears"], "starts or ends inside, or spans it")
        #expect(timelines[0].span == (8, 13))
        #expect(timelines[1].beside.map(\.test) == ["long", "keeps"], "after ended before it began")
        #expect(timelines[1].span == (8, 13), "an unended attempt reaches as far as the others")
    }

    @Test func aFailureAloneIsNotDrawnAndTheLimitHolds() {
        #expect(
            AttemptTimeline.failing(in: [attempt("a", 0, 1, .failed), attempt("b", 1, 1, .passed)], limit: 5).isEmpty)
        let crowded = (0..<8).map { attempt("t\($0)", Double($0) * 0.1, 1, .failed) }
        #expect(AttemptTimeline.failing(in: crowded, limit: 3).map(\.attempt.test) == ["t0", "t1", "t2"])
    }
}
