import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// When TAP tests start and how long they last, with arrival times (`testledger format`) and
/// without (a file), and when their events go out.
struct TAPTimingTests {
    static let start = ImportedRun.start

    @Test func withArrivalTimesATestLastsSinceThePreviousTestPoint() throws {
        let (events, notes) = try TAPSamples.live(
            [("TAP version 14", 0), ("ok 1 - a", 0.5), ("ok 2 - b", 2), ("1..2", 2.25)], endingAt: 3)
        let all = events.flatMap { $0 }
        let ends = all.compactMap { if case .testEnd(let end) = $0 { end } else { nil } }
        let starts = all.compactMap { if case .testStart(let start) = $0 { start } else { nil } }
        #expect(ends.map(\.duration) == [0.5, 1.5])
        #expect(ends.map(\.at) == [Self.start + 0.5, Self.start + 2])
        #expect(starts.map(\.at) == [Self.start, Self.start + 0.5])
        #expect(all.last == .runEnd(LedgerEvent.RunEnd(at: Self.start + 3, outcome: .passed)))
        #expect(notes.isEmpty)
    }

    @Test func withArrivalTimesTheDurationTheOutputGivesWins() throws {
        let (events, _) = try TAPSamples.live([
            ("ok 1 - a # time=100ms", 5), ("ok 2 - b", 6), ("  ---", 6), ("  duration_ms: 250", 6), ("  ...", 6),
            ("1..2", 7),
        ])
        let ends = events.flatMap { $0 }.compactMap { if case .testEnd(let end) = $0 { end } else { nil } }
        #expect(ends.map(\.duration) == [0.1, 0.25])
        #expect(ends.map(\.at) == [Self.start + 5, Self.start + 6])
    }

    @Test func withoutArrivalTimesTestsFollowOneAnotherFromTheRunsStart() throws {
        let run = try TAPSamples.run("ok 1 - a # time=1s\nok 2 - b\nok 3 - c # time=2s\n1..3\n")
        #expect(run.starts.map(\.at) == [0, 1, 1].map { Self.start + $0 })
        #expect(run.ends.map(\.at) == [1, 1, 3].map { Self.start + $0 })
        #expect(run.runEnd?.at == Self.start + 3)
    }

    @Test func aTestsEventsGoOutOnceItsDiagnosticsAreOver() throws {
        let (events, _) = try TAPSamples.live([
            ("not ok 1 - a", 1),  // 0: could still get YAML
            ("  ---", 1),  // 1
            ("  message: boom", 1),  // 2
            ("  ...", 1),  // 3: could still get comments
            ("# more detail", 1),  // 4
            ("ok 2 - b", 2),  // 5: a is complete
            ("1..2", 3),  // 6: b is complete
        ])
        #expect(events[0...4].allSatisfy { $0.isEmpty })
        #expect(events[5].map(\.type) == ["test.start", "issue", "test.end"])
        #expect(events[6].map(\.type) == ["test.start", "test.end"])
        #expect(events[7].map(\.type) == ["run.end"])
        guard case .issue(let issue) = events[5][1] else { return }
        #expect(issue.message == "boom")
        guard case .testEnd(let end) = events[5][2] else { return }
        #expect(end.message == "more detail", "comments after a YAML message are kept beside it")
    }
}
