import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Imports the event stream of a real `swift test` run of `Tests/Fixtures/SwiftTestingSample`.
///
/// The fixture's own run fails (one of its tests fails on purpose), so its exit status is not
/// checked; its output file is. Runs are serialized: they share one build directory.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SwiftTestingRealStreamTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = packageRoot.appendingPathComponent("Tests/Fixtures/SwiftTestingSample")
    static let source = fixture.appendingPathComponent("Tests/SampleTests/SampleTests.swift")
    /// Shared by every fixture package, so repeated runs reuse their builds.
    static let scratch = packageRoot.appendingPathComponent(".build-fixtures/SwiftTestingSample")

    @Test func defaultStreamOfSwift63ImportsEveryOutcome() async throws {
        let events = try await Self.importRun { output in
            ["--experimental-event-stream-output", output.path]
        }
        try Self.checkOutcomes(events)
        #expect(
            events.start(of: "SampleTests/isTagged()")?.tags == nil, "6.3 writes no tags by default"
        )
    }

    @Test func version0StreamImportsEveryOutcomeAndTheTags() async throws {
        let events = try await Self.importRun { output in
            ["--event-stream-output-path", output.path, "--event-stream-version", "0"]
        }
        try Self.checkOutcomes(events)
        let tagged = try #require(events.start(of: "SampleTests/isTagged()"))
        #expect(tagged.tags == ["integration", "slow"])
        #expect(tagged.layer == .integration)
    }

    static func checkOutcomes(_ events: SwiftTestingImportedEvents) throws {
        let outcomes = Dictionary(
            events.ends.map { ($0.test, $0.outcome) }, uniquingKeysWith: { $1 })
        #expect(
            outcomes == [
                "SampleTests/passes()": .passed,
                "SampleTests/failsAnExpectation()": .failed,
                "SampleTests/passesWithAKnownIssue()": .passed,
                "SampleTests/isSkipped()": .skipped,
                "SampleTests/checksEachArgument(value:)": .failed,
                "SampleTests/sleepsFiftyMilliseconds()": .passed,
                "SampleTests/isTagged()": .passed,
                "SampleTests.Outer/Inner/nestedPasses()": .passed,
            ])
        #expect(events.starts.count == 8, "one test per function, none per argument or suite")
        #expect(events.runStarts.count == 1)
        #expect(events.runEnds.map(\.outcome) == [.failed])

        let slept = try #require(events.end(of: "SampleTests/sleepsFiftyMilliseconds()"))
        #expect(slept.duration >= 0.05)
        #expect(
            events.end(of: "SampleTests/passesWithAKnownIssue()")?.message?.contains(
                "passed with known issue") == true)
        #expect(
            events.end(of: "SampleTests/isSkipped()")?.message?.contains("Waiting for the new API")
                == true)
        #expect(
            events.start(of: "SampleTests.Outer/Inner/nestedPasses()")?.suite
                == "SampleTests.Outer/Inner")

        let failure = try #require(
            events.issues.first { $0.test == "SampleTests/failsAnExpectation()" })
        #expect(failure.file == source.path)
        #expect(failure.line == (try line(containing: "#expect(answer == 42)")))
        #expect(failure.message.contains("Expectation failed"))
        let argument = try #require(
            events.issues.first { $0.test == "SampleTests/checksEachArgument(value:)" })
        #expect(argument.line == (try line(containing: "#expect(value != 2)")))
        #expect(events.issues.count == 2, "the known issue is not a failure")
    }

    /// Runs the fixture's tests with `flags(output file)` and imports the stream they write.
    static func importRun(_ flags: (URL) -> [String]) async throws -> SwiftTestingImportedEvents {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-testing-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("events.jsonl")
        let swiftTest = try await ChildProcess.runTool(
            ["swift", "test", "--package-path", fixture.path, "--scratch-path", scratch.path] + flags(output))

        guard FileManager.default.fileExists(atPath: output.path) else {
            let text = swiftTest.stdout + swiftTest.stderr
            Issue.record("swift test wrote no event stream (status \(swiftTest.status)):\n\(text.suffix(4000))")
            throw FixtureRunFailed()
        }
        return try SwiftTestingImport.events(.file(output))
    }

    /// The 1-based line of the fixture source that contains `text`.
    static func line(containing text: String) throws -> Int {
        let lines = try String(contentsOf: source, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(text) })
        return index + 1
    }

    struct FixtureRunFailed: Error {}
}
