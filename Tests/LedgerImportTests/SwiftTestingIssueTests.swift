import Foundation
import LedgerCore
import LedgerImport
import Testing

/// Which issues fail a test and how they are recorded, in every record version.
@Suite struct SwiftTestingIssueTests {
    typealias Builder = SwiftTestingStreamBuilder
    static let passing = "SampleTests.passes()/SampleTests.swift:9:2"
    static let failing = "SampleTests.Math/adds()/SampleTests.swift:13:6"

    @Test(arguments: Builder.Dialect.allCases)
    func failingExpectationBecomesIssueWithItsMessagesAndPlace(dialect: Builder.Dialect) throws {
        var stream = Builder(dialect)
        stream.function(Self.failing, name: "adds()", line: 13)
        stream.event("runStarted", at: 1)
        stream.event("testStarted", Self.failing, at: 2)
        stream.issue(
            Self.failing, at: 2.5,
            messages: [
                ("fail", "Expectation failed: (answer → 41) == 42"), ("details", "the answer"),
            ],
            line: 15)
        stream.event("testEnded", Self.failing, at: 3)
        stream.event("runEnded", at: 4)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.types == ["run.start", "test.start", "issue", "test.end", "run.end"])
        #expect(
            events.issues == [
                LedgerEvent.Issue(
                    at: Builder.epoch + 2.5, test: "SampleTests.Math/adds()", attempt: 1,
                    message: "Expectation failed: (answer → 41) == 42\nthe answer",
                    file: Builder.file, line: 15, kind: .assertion)
            ])
        #expect(events.end(of: "SampleTests.Math/adds()")?.outcome == .failed)
        #expect(events.runEnds.first?.outcome == .failed)
    }

    @Test func caughtErrorIsAnIssueOfKindError() throws {
        var stream = Builder(.v63)
        stream.function(Self.failing, name: "adds()")
        stream.event("testStarted", Self.failing, at: 2)
        stream.issue(
            Self.failing, at: 2.5, messages: [("fail", "Caught error: CancellationError()")])
        stream.event("testEnded", Self.failing, at: 3)
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.issues.map(\.kind) == [.error])
    }

    @Test(arguments: Builder.Dialect.allCases)
    func knownIssuePassesAndIsNamedInTheEndMessage(dialect: Builder.Dialect) throws {
        var stream = Builder(dialect)
        stream.function(Self.passing, name: "passes()")
        stream.event("testStarted", Self.passing, at: 1)
        stream.issue(
            Self.passing, at: 1.1, known: true,
            messages: [
                ("passWithKnownIssue", "Expectation failed: Bool(false)"), ("details", "Broken"),
            ])
        stream.event("testEnded", Self.passing, at: 1.2)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.issues.isEmpty)
        let end = try #require(events.end(of: "SampleTests/passes()"))
        #expect(end.outcome == .passed)
        #expect(end.message == "passed with known issue: Expectation failed: Bool(false)\nBroken")
    }

    @Test(arguments: [Builder.Dialect.v63, .v64])
    func warningDoesNotFailTheTest(dialect: Builder.Dialect) throws {
        var stream = Builder(dialect)
        stream.function(Self.passing, name: "passes()")
        stream.event("testStarted", Self.passing, at: 1)
        stream.issue(
            Self.passing, at: 1.1, warning: true, messages: [("warning", "Issue recorded")])
        stream.event("testEnded", Self.passing, at: 1.2)
        let events = try SwiftTestingImport.events(stream.data)

        #expect(events.issues.isEmpty)
        #expect(events.ends.map(\.outcome) == [.passed])
    }
}
