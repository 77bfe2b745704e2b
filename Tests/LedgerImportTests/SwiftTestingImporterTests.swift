import Foundation
import LedgerCore
import LedgerImport
import Testing

/// How each kind of test in a Swift Testing stream becomes Ledger events, in every record version.
@Suite struct SwiftTestingImporterTests {
    typealias Builder = SwiftTestingStreamBuilder
    static let passing = "SampleTests.passes()/SampleTests.swift:9:2"
    static let failing = "SampleTests.Math/adds()/SampleTests.swift:13:6"

    @Test(arguments: Builder.Dialect.allCases)
    func passingTestEndsPassedWithTimesFromItsInstants(dialect: Builder.Dialect) throws {
        var stream = Builder(dialect)
        stream.function(Self.passing, name: "passes()", line: 9)
        stream.event("runStarted", at: 10)
        stream.event("testStarted", Self.passing, at: 10.5)
        stream.event(
            "testEnded", Self.passing, at: 10.75, messages: [("pass", "Test passes() passed.")])
        stream.event("runEnded", at: 11)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.types == ["run.start", "test.start", "test.end", "run.end"])
        let runStart = try #require(events.runStarts.first)
        #expect(runStart.at == Builder.epoch + 10)
        #expect(runStart.source == "swift-testing")
        #expect(runStart.project == "Sample")
        #expect(
            events.starts == [
                LedgerEvent.TestStart(
                    at: Builder.epoch + 10.5, test: "SampleTests/passes()", attempt: 1,
                    suite: "SampleTests", name: "passes()", file: Builder.file, line: 9)
            ])
        #expect(
            events.ends == [
                LedgerEvent.TestEnd(
                    at: Builder.epoch + 10.75, test: "SampleTests/passes()", attempt: 1,
                    outcome: .passed, duration: 0.25)
            ])
        #expect(events.runEnds == [LedgerEvent.RunEnd(at: Builder.epoch + 11, outcome: .passed)])
    }

    @Test(arguments: Builder.Dialect.allCases)
    func skippedTestStartsAndEndsSkippedAtOnceWithTheSkipText(dialect: Builder.Dialect) throws {
        var stream = Builder(dialect)
        stream.function(Self.passing, name: "passes()")
        stream.event("runStarted", at: 1)
        stream.event(
            "testSkipped", Self.passing, at: 1.5,
            messages: [("skip", "Test passes() skipped: \"Waiting for the new API\"")])
        stream.event("runEnded", at: 2)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.types == ["run.start", "test.start", "test.end", "run.end"])
        #expect(events.starts.map(\.at) == [Builder.epoch + 1.5])
        #expect(
            events.ends == [
                LedgerEvent.TestEnd(
                    at: Builder.epoch + 1.5, test: "SampleTests/passes()", attempt: 1,
                    outcome: .skipped,
                    duration: 0, message: "Test passes() skipped: \"Waiting for the new API\"")
            ])
        #expect(events.runEnds.first?.outcome == .passed)
    }

    /// Swift 6.3 sends `testCancelled` then `testEnded`; earlier experimental streams `_testCancelled`.

    @Test(arguments: ["testCancelled", "_testCancelled"])
    func cancelledTestEndsSkippedWithMessageCancelled(kind: String) throws {
        var stream = Builder(.v63)
        stream.function(Self.passing, name: "passes()")
        stream.function(Self.failing, name: "adds()")
        stream.event("testStarted", Self.passing, at: 1)
        stream.event(kind, Self.passing, at: 1.1)
        stream.event("testCaseCancelled", Self.passing, at: 1.1)
        stream.event("testEnded", Self.passing, at: 1.5, messages: [("skip", "was cancelled")])
        stream.event(kind, Self.failing, at: 2)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.types == ["run.start", "test.start", "test.end", "test.start", "test.end"])
        #expect(events.ends.map(\.outcome) == [.skipped, .skipped])
        #expect(events.ends.map(\.message) == ["cancelled", "cancelled"])
        #expect(events.ends.map(\.duration) == [0.5, 0])
    }

    @Test(arguments: Builder.Dialect.allCases)
    func parameterizedTestIsOneTestThatFailsWhenOneCaseFails(dialect: Builder.Dialect) throws {
        let id = "SampleTests.checks(value:)/SampleTests.swift:26:2"
        var stream = Builder(dialect)
        stream.function(id, name: "checks(value:)", parameterized: true)
        stream.event("testStarted", id, at: 1)
        for (index, time) in [1.1, 1.2, 1.3].enumerated() {
            let testCase: [String: Any] = [
                "_testCase": ["displayName": "\(index + 1)", "id": "case \(index)"]
            ]
            stream.event("testCaseStarted", id, at: time, extra: testCase)
            if index == 1 {
                stream.issue(
                    id, at: time + 0.01,
                    messages: [("fail", "Expectation failed: (value → 2) != 2")])
            }
            stream.event("testCaseEnded", id, at: time + 0.05, extra: testCase)
        }
        stream.event("testEnded", id, at: 1.4)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.starts.map(\.test) == ["SampleTests/checks(value:)"])
        #expect(events.issues.count == 1)
        #expect(events.ends.map(\.outcome) == [.failed])
    }

    @Test(arguments: Builder.Dialect.allCases)
    func suitesAreNotTestsButTheirFunctionsAre(dialect: Builder.Dialect) throws {
        let nested = "SampleTests.Outer/Inner/nested()/SampleTests.swift:38:10"
        var stream = Builder(dialect)
        stream.suite("SampleTests.Outer", name: "Outer", displayName: "Outer suite")
        stream.suite("SampleTests.Outer/Inner", name: "Inner", displayName: "Inner suite")
        stream.function(nested, name: "nested()", line: 38)
        stream.event("testStarted", "SampleTests.Outer", at: 1)
        stream.event("testStarted", "SampleTests.Outer/Inner", at: 1.1)
        stream.event("testStarted", nested, at: 1.2)
        stream.event("testEnded", nested, at: 1.3)
        stream.event("testEnded", "SampleTests.Outer/Inner", at: 1.4)
        stream.event("testEnded", "SampleTests.Outer", at: 1.5)
        let events = try SwiftTestingImport.events(stream.data)

        let start = try #require(events.starts.first)
        #expect(events.starts.count == 1)
        #expect(start.test == "SampleTests.Outer/Inner/nested()")
        #expect(start.suite == "SampleTests.Outer/Inner")
        #expect(start.name == "nested()")
        #expect(events.ends.count == 1)
    }

    @Test(arguments: Builder.Dialect.allCases)
    func unfinishedTestCrashedAndTheRunHasNoEnd(dialect: Builder.Dialect) throws {
        var stream = Builder(dialect)
        stream.function(Self.passing, name: "passes()")
        stream.function(Self.failing, name: "adds()")
        stream.event("runStarted", at: 1)
        stream.event("testStarted", Self.passing, at: 2)
        stream.event("testStarted", Self.failing, at: 3)
        stream.event("testEnded", Self.failing, at: 4.5)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.runEnds.isEmpty)
        let crashed = try #require(events.end(of: "SampleTests/passes()"))
        #expect(crashed.outcome == .crashed)
        #expect(crashed.duration == 2.5)
        #expect(crashed.at == Builder.epoch + 4.5)
        #expect(events.end(of: "SampleTests.Math/adds()")?.outcome == .passed)
    }
}
