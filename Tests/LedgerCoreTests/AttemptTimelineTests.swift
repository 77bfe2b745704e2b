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

    @Test func oneAttemptsTimelineCarriesEveryonesStepsAndReadsInWords() throws {
        let attempts = [
            attempt("quotes", 10, 0.2, .failed), attempt("flips", 9.95, 0.3, .passed),
            attempt("quotes", 20, 0.2, .passed, attempt: 2), attempt("alone", 30, 1, .passed),
        ]
        #expect(AttemptTimeline.of("quotes", attempt: 2, in: attempts) == nil, "nothing beside the retry")
        let timeline = try #require(AttemptTimeline.of("quotes", attempt: 1, in: attempts))
        #expect(timeline.tests == ["quotes", "flips"])
        let step = { (path: [String], start: Double, end: Double?, outcome: Outcome?) in
            AttemptEvidence.Step(path: path, startedAt: start, endedAt: end, outcome: outcome)
        }
        let drawn = timeline.withSteps([
            "quotes": [1: [step(["Quote"], 10.1, 10.15, .failed)], 2: [step(["Quote"], 20.1, 20.2, .passed)]],
            "flips": [1: [step(["Refresh"], 10.05, 10.12, .passed), step(["Refresh", "Flip"], 10.06, nil, nil)]],
        ])
        #expect(drawn.attempt.steps.map(\.startedAt) == [10.1], "its own attempt's steps, not the retry's")
        #expect(drawn.beside.first?.steps.count == 2)
        #expect(
            TimelineRendering.text(drawn) == """
                Beside attempt 1 (times from its start; 1 test(s)):
                  this test  +0ms to +200ms  failed
                    Quote  +100ms to +150ms  failed
                  flips  -50ms to +250ms  passed
                    Refresh  +50ms to +120ms
                      Flip  +60ms to never ended
                """)
    }
}
