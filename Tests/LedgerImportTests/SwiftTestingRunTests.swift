import Foundation
import LedgerCore
import LedgerImport
import Testing

/// The run around the tests, and the stream rules that are not about one test.
@Suite struct SwiftTestingRunTests {
    typealias Builder = SwiftTestingStreamBuilder
    static let test = "M.S/t()/F.swift:1:1"

    @Test func runStartFallsBackToTheContextsStartWithoutRunStarted() throws {
        var stream = Builder(.v63)
        stream.function(Self.test, name: "t()")
        stream.event("testStarted", Self.test, at: 1)
        stream.event("testEnded", Self.test, at: 2)
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.types == ["run.start", "test.start", "test.end"])
        #expect(events.runStarts.map(\.at) == [42])
    }

    @Test func streamOfTestRecordsOnlyIsAStartedRunThatNeverEnded() throws {
        var stream = Builder(.v0)
        stream.function(Self.test, name: "t()")
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.types == ["run.start"])
    }

    @Test func unknownRecordKindsAndEventKindsAreSkipped() throws {
        var stream = Builder(.v63)
        stream.raw(#"{"kind":"metrics","payload":{"anything":[1,2]},"version":"6.3.0"}"#)
        stream.raw(
            #"{"kind":"test","payload":{"kind":"benchmark","id":"x","name":"x"},"version":"6.3.0"}"#
        )
        stream.function(Self.test, name: "t()")
        stream.event("runStarted", at: 1)
        stream.event("testStarted", Self.test, at: 2)
        stream.event("somethingNew", Self.test, at: 2.1)
        stream.event(
            "valueAttached", Self.test, at: 2.2, extra: ["attachment": ["path": "/tmp/a.txt"]])
        stream.event("testEnded", Self.test, at: 3)
        stream.event("runEnded", at: 4)
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.types == ["run.start", "test.start", "test.end", "run.end"])
    }

    @Test(arguments: ["0", #""6.3.0""#, #""6.4.0""#, #""6.5.12""#, #""99.0.0""#])
    func anyIntegerOrDottedTripleVersionIsRead(version: String) throws {
        let line =
            #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":7},"kind":"runStarted","messages":[]},"version":\#(version)}"#
        let events = try SwiftTestingImport.events(Data(line.utf8))
        #expect(events.runStarts.map(\.at) == [7])
    }

    @Test func failingIssueOutsideAnyTestFailsTheRunButIsNoTestIssue() throws {
        var stream = Builder(.v0)
        stream.function(Self.test, name: "t()")
        stream.event("runStarted", at: 1)
        stream.issue(nil, at: 1.5, messages: [("fail", "Caught error in a suite trait")])
        stream.event("testStarted", Self.test, at: 2)
        stream.event("testEnded", Self.test, at: 3)
        stream.event("runEnded", at: 4)
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.issues.isEmpty)
        #expect(events.ends.map(\.outcome) == [.passed])
        #expect(events.runEnds.map(\.outcome) == [.failed])
    }

    @Test func mergedRunsStartOnceAndEndOnlyWhenEveryRunEnded() throws {
        var stream = Builder(.v63)
        stream.function(Self.test, name: "t()")
        stream.event("runStarted", at: 1)
        stream.event("runEnded", at: 2)
        stream.event("runStarted", at: 3)
        let interrupted = try SwiftTestingImport.events(stream.data)
        #expect(interrupted.runStarts.map(\.at) == [Builder.epoch + 1])
        #expect(interrupted.runEnds.isEmpty)

        stream.event("runEnded", at: 4)
        let complete = try SwiftTestingImport.events(stream.data)
        #expect(complete.runEnds.map(\.at) == [Builder.epoch + 4])
    }

    @Test func blankLinesAndCarriageReturnsAreTolerated() throws {
        var stream = Builder(.v63)
        stream.function(Self.test, name: "t()")
        stream.raw("")
        stream.raw("   ")
        stream.event("testStarted", Self.test, at: 1)
        let text = stream.lines.joined(separator: "\r\n")
        let events = try SwiftTestingImport.events(Data(text.utf8))
        #expect(events.starts.count == 1)
    }

    @Test func fileInputGivesTheSameEventsAsData() throws {
        var stream = Builder(.v63)
        stream.function(Self.test, name: "t()")
        stream.event("runStarted", at: 1)
        stream.event("testStarted", Self.test, at: 2)
        stream.event("testEnded", Self.test, at: 3)
        stream.event("runEnded", at: 4)
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-testing-\(UUID().uuidString).jsonl")
        try stream.data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let fromFile = try SwiftTestingImport.events(.file(url))
        let fromData = try SwiftTestingImport.events(stream.data)
        #expect(fromFile.events == fromData.events)
        #expect(fromFile.events.count == 4)
    }
}
