import LedgerCore
import Testing

/// `AttemptOffsetSink`: a retry's outputs, numbered from attempt 1 by their producers, join the
/// run as the tests' next attempts.
@Suite struct AttemptOffsetSinkTests {
    /// One event of each kind, each of attempt `attempt`; the run's own attempt (the CI job's
    /// re-run) is 1 whatever `attempt` is.
    static func events(attempt: Int) -> [LedgerEvent] {
        let test = "App.Cart/testTotal"
        return [
            .runStart(.init(at: 1, project: "Shop", source: "swift-test", attempt: 1)),
            .testStart(.init(at: 2, test: test, attempt: attempt, suite: "App.Cart", name: "testTotal")),
            .activityStart(.init(at: 3, test: test, attempt: attempt, activity: "a1", name: "Fill the cart")),
            .capture(.init(at: 4, test: test, attempt: attempt, verifier: "Alert", activity: "a1")),
            .predicate(
                .init(
                    at: 5, test: test, attempt: attempt, name: "spinner hidden", expect: .holds, held: true,
                    attempts: 3, waited: 0.2, timeout: 1)),
            .activityEnd(.init(at: 6, activity: "a1", outcome: .passed)),
            .attachment(.init(at: 7, test: test, attempt: attempt, name: "screen.png", mediaType: "image/png")),
            .issue(.init(at: 8, test: test, attempt: attempt, message: "total is 0", file: "Cart.swift", line: 12)),
            .testEnd(.init(at: 9, test: test, attempt: attempt, outcome: .failed, duration: 7)),
            .runEnd(.init(at: 10, outcome: .failed)),
        ]
    }

    /// `events` through an `AttemptOffsetSink` of `offset` into a collecting sink.
    static func shifted(_ events: [LedgerEvent], by offset: Int) throws -> CollectingSink {
        var sink = CollectingSink()
        try sink.offsettingAttempts(by: offset) { shifting in
            for event in events { try shifting.consume(LedgerRecord(run: "r1", event: event)) }
        }
        return sink
    }

    @Test func everyEventOfAnAttemptIsShiftedAndTheRunsEventsAndActivityEndsAreNot() throws {
        let given = Self.events(attempt: 1)
        #expect(Set(given.map(\.type)).count == 10, "every kind of event")
        let sink = try Self.shifted(given, by: 2)
        #expect(sink.events == Self.events(attempt: 3))
        #expect(sink.events.first?.runStart?.attempt == 1, "the CI job's re-run is not a test's attempt")
        #expect(sink.records.allSatisfy { $0.run == "r1" })
        for (event, expected) in zip(given, Self.events(attempt: 3)) {
            #expect(AttemptOffsetSink<CollectingSink>.shifted(event, by: 2) == expected, "\(event.type)")
        }
    }

    @Test func anOffsetOfZeroLeavesEveryEventAsItIs() throws {
        let given = Self.events(attempt: 2)
        #expect(try Self.shifted(given, by: 0).events == given)
        for event in given {
            #expect(AttemptOffsetSink<CollectingSink>.shifted(event, by: 0) == event, "\(event.type)")
        }
    }

    @Test func warningsPassThroughAndWhatWasWrittenBeforeAThrowStays() {
        struct Stop: Error {}
        var sink = CollectingSink()
        #expect(throws: Stop.self) {
            try sink.offsettingAttempts(by: 1) { shifting in
                shifting.warn("line 3: skipped")
                try shifting.consume(LedgerRecord(run: "r1", event: Self.events(attempt: 1)[1]))
                throw Stop()
            }
        }
        #expect(sink.warnings == ["line 3: skipped"])
        #expect(sink.events.map { $0.testStart?.attempt } == [2])
    }
}
