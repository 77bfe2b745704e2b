import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@testable import TestLedger

/// The recorder, fed as the XCTest observer and the public API feed it, writing into memory.
@Suite struct RecorderTests {
    let destination = MemoryDestination()
    var recorder: Recorder { Recorder(store: destination) }

    static func context(_ test: String, _ library: TestContext.Library = .xctest) -> TestContext {
        TestContext(library: library, test: test, attempt: 1, suite: "M.S", name: "t", layer: .unit)
    }

    @Test func anXCTestCaseWritesItsStartAtOnceAndTheRestWhenItEnds() {
        let recorder = self.recorder
        recorder.xctestWillStart(Self.context("M.S/t"), at: 10)
        // The process and the machine's load are the observer's own: read, then compared as given.
        let started = destination.events.testStarts.first
        #expect(started?.process == Int(getpid()))
        #expect(started?.load != nil, "Linux gives a load average")
        var start = Self.context("M.S/t").testStart(at: 10)
        (start.process, start.load) = (started?.process, started?.load)
        #expect(destination.writes == [.init(running: true, events: [.testStart(start)])])
        recorder.xctestFailed(message: "boom", file: "S.swift", line: 3, at: 11)
        #expect(destination.writes.count == 1, "a failure waits for the test's end")
        recorder.xctestDidFinish(outcome: .failed, duration: 2, message: "boom", at: 12)
        let last = destination.writes.last
        #expect(last?.running == false)
        let ended = destination.events.testEnds.first
        #expect(ended?.load != nil)
        #expect((0..<60).contains(ended?.cpu ?? -1), "the CPU seconds this process used while it ran")
        #expect(
            last?.events == [
                .issue(.init(at: 11, test: "M.S/t", message: "boom", file: "S.swift", line: 3, kind: .assertion)),
                .testEnd(
                    .init(
                        at: 12, test: "M.S/t", outcome: .failed, duration: 2, message: "boom", load: ended?.load,
                        cpu: ended?.cpu)),
            ])
    }

    @Test func aTestRunAgainIsItsNextAttempt() {
        let recorder = self.recorder
        for at in [1.0, 2.0] {
            recorder.xctestWillStart(Self.context("M.S/t"), at: at)
            recorder.xctestDidFinish(outcome: .passed, duration: 0.5, message: nil, at: at + 0.5)
        }
        #expect(destination.events.testStarts.map(\.attempt) == [1, 2])
        #expect(destination.events.testEnds.map(\.attempt) == [1, 2])
    }

    @Test func aFailureInsideAnActivityFailsItAndItsParents() throws {
        let recorder = self.recorder
        let context = Self.context("M.S/t")
        recorder.xctestWillStart(context, at: 1)
        let attempt = try #require(destination.events.testStarts.first?.attempt)
        var inAttempt = context
        inAttempt.attempt = attempt
        let outer = recorder.beginActivity("Log in", parent: nil, in: inAttempt, at: 2)
        let inner = recorder.beginActivity("Type name", parent: outer, in: inAttempt, at: 3)
        recorder.xctestFailed(message: "no field", file: nil, line: nil, at: 4)
        recorder.endActivity(inner, threw: false, at: 5)
        recorder.endActivity(outer, threw: false, at: 6)
        let passing = recorder.beginActivity("Look", parent: nil, in: inAttempt, at: 7)
        recorder.endActivity(passing, threw: false, at: 8)
        recorder.xctestDidFinish(outcome: .failed, duration: 8, message: nil, at: 9)
        let ends = destination.events.compactMap(\.activityEnd)
        #expect(ends.map(\.activity) == [inner, outer, passing])
        #expect(ends.map(\.outcome) == [.failed, .failed, .passed])
        let starts = destination.events.compactMap(\.activityStart)
        #expect(starts.map(\.parent) == [nil, outer, nil])
    }

    @Test func swiftTestingEventsWaitForTheirTopLevelActivity() {
        let recorder = self.recorder
        let context = Self.context("M.S/swift", .swiftTesting)
        let activity = recorder.beginActivity("Checkout", parent: nil, in: context, at: 20)
        let capture = LedgerEvent.capture(
            .init(at: 21, test: "M.S/swift", verifier: "AlertVerifier", activity: activity, fields: ["title": "Pay?"]))
        recorder.record(capture, in: context, inside: activity)
        #expect(destination.writes.isEmpty, "nothing is written while the activity is open")
        recorder.endActivity(activity, threw: true, at: 22)
        #expect(destination.writes.count == 1)
        let events = destination.events
        #expect(events.first == .testStart(context.testStart(at: 20)), "opened at its first event's time")
        #expect(events.dropFirst().first?.activityStart?.name == "Checkout")
        #expect(events.contains(capture))
        #expect(events.last?.activityEnd?.outcome == .failed)
    }

    @Test func aPredicateOutsideAnActivityIsWrittenAtOnce() {
        let recorder = self.recorder
        let context = Self.context("M.S/swift", .swiftTesting)
        let predicate = LedgerEvent.predicate(
            .init(
                at: 30, test: "M.S/swift", name: "spinner gone", expect: .doesntHold, held: true, attempts: 3,
                waited: 0.2, timeout: 1))
        recorder.record(predicate, in: context, inside: nil)
        #expect(destination.writes.map(\.events) == [[.testStart(context.testStart(at: 30)), predicate]])
    }

    @Test func eachTopLevelStepOfASwiftTestingTestIsABatchOfItsOwnThatReopensTheAttempt() throws {
        let recorder = self.recorder
        let context = Self.context("M.S/swift", .swiftTesting)
        let first = recorder.beginActivity("Open", parent: nil, in: context, at: 1)
        let nested = recorder.beginActivity("Tap", parent: first, in: context, at: 2)
        let deeper = recorder.beginActivity("Wait", parent: nested, in: context, at: 3)
        let check = LedgerEvent.predicate(
            .init(
                at: 4, test: "M.S/swift", name: "shown", expect: .holds, held: true, attempts: 2, waited: 0.1,
                timeout: 1, activity: deeper))
        recorder.record(check, in: context, inside: deeper)
        recorder.endActivity(deeper, threw: false, at: 5)
        recorder.endActivity(nested, threw: false, at: 6)
        #expect(destination.writes.isEmpty, "the tree is written when its top-level step ends")
        recorder.endActivity(first, threw: false, at: 7)
        let second = recorder.beginActivity("Pay", parent: nil, in: context, at: 8)
        recorder.endActivity(second, threw: false, at: 9)
        let writes = destination.writes
        #expect(writes.count == 2)
        #expect(
            writes.map { $0.events.first } == [
                .testStart(context.testStart(at: 1)), .testStart(context.testStart(at: 8)),
            ])
        #expect(writes[0].events.compactMap(\.activityStart).map(\.name) == ["Open", "Tap", "Wait"])
        #expect(writes[0].events.compactMap(\.activityEnd).map(\.activity) == [deeper, nested, first])
        #expect(writes[0].events.contains(check))
        #expect(writes[1].events.compactMap(\.activityStart).map(\.name) == ["Pay"])
        #expect(writes.allSatisfy { $0.running })
    }

    @Test func stepsRunningSideBySideInOneTestAreWrittenApartAndWhole() {
        // The cases of a parameterized test share the test, and each runs its own steps.
        let recorder = self.recorder
        let context = Self.context("M.S/cases(_:)", .swiftTesting)
        let caseOne = recorder.beginActivity("Case one", parent: nil, in: context, at: 1)
        let caseTwo = recorder.beginActivity("Case two", parent: nil, in: context, at: 2)
        let inner = recorder.beginActivity("Inner of two", parent: caseTwo, in: context, at: 3)
        let outside = LedgerEvent.capture(.init(at: 4, test: "M.S/cases(_:)", verifier: "Spy"))
        recorder.record(outside, in: context, inside: nil)
        #expect(destination.writes.map(\.events) == [[.testStart(context.testStart(at: 4)), outside]])
        recorder.endActivity(caseOne, threw: false, at: 5)
        let one = destination.writes.last?.events ?? []
        #expect(one.compactMap(\.activityStart).map(\.activity) == [caseOne], "the other case's open steps wait")
        recorder.endActivity(inner, threw: true, at: 6)
        recorder.endActivity(caseTwo, threw: true, at: 7)
        let two = destination.writes.last?.events ?? []
        #expect(two.compactMap(\.activityStart).map(\.activity) == [caseTwo, inner])
        #expect(two.compactMap(\.activityEnd).map(\.outcome) == [.failed, .failed])
        #expect(destination.writes.count == 3)
    }

    @Test func aDisabledRecorderSeesNoTest() {
        let recorder = Recorder(store: destination, isEnabled: false)
        #expect(recorder.context() == nil, "though this is a Swift Testing test")
        let enabled = Recorder(store: destination).context()
        #expect(enabled?.library == .swiftTesting)
        #expect(enabled?.test.hasSuffix("RecorderTests/aDisabledRecorderSeesNoTest()") == true)
    }

    @Test func theBundlesEndEndsTheRun() {
        recorder.bundleDidFinish(at: 99)
        #expect(destination.runEnds == [99])
    }
}
