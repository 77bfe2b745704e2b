import Foundation
import LedgerCore
import LedgerImport
import Testing

/// ``BaconOutputParser`` and ``BaconImporter`` on output that was cut short, is not Bacon's at
/// all, or is huge; and format detection.
struct BaconHostileInputTests {
    static let context = ImportContext(
        runID: "BACO0000-0000-4000-8000-000000000001", sourceName: "bacon.txt",
        metadata: RunMetadata(project: "Specs"), fallbackStart: 42)

    static let sample = """
        Cart
          - adds
          - removes [FAILED]

        Bacon::Error: 1.==(2) failed
        \tspec/cart_spec.rb:9:in `block (2 levels)': Cart - removes
        \tspec/cart_spec.rb:1:in `<top (required)>'

        2 specifications (2 requirements), 1 failures, 0 errors

        """

    func importing(_ data: Data) throws -> CollectingSink {
        var sink = CollectingSink()
        try BaconImporter().importResults(from: .data(data), context: Self.context, into: &sink)
        return sink
    }

    @Test func outputCutShortHasNoRunEnd() async throws {
        let lines = Self.sample.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix { !$0.hasPrefix("2 specifications") }.joined(separator: "\n")
        let parse = try BaconSpecs.parse(cut)
        #expect(parse.runEnds.isEmpty)
        #expect(parse.ends.map(\.outcome) == [.passed, .failed], "what was read is kept")
        #expect(parse.issue(of: "Cart/removes")?.line == 9)
        #expect(parse.parser.notes.last?.contains("cut short") == true)
        let early = try BaconSpecs.parse("Cart\n  - adds\n  - removes [FAILED]")
        #expect(early.runEnds.isEmpty)
        #expect(early.issue(of: "Cart/removes")?.message == "FAILED")
    }

    @Test func importingStoresTheRunWithItsStart() async throws {
        let sink = try importing(Data(Self.sample.utf8))
        #expect(sink.records.allSatisfy { $0.run == Self.context.runID })
        #expect(
            sink.events.map(\.type) == [
                "run.start", "test.start", "test.end", "test.start", "issue", "test.end", "run.end",
            ])
        guard case .runStart(let start) = sink.events.first else { throw Unexpected() }
        #expect(start.source == "bacon")
        #expect(start.project == "Specs")
        #expect(sink.warnings.isEmpty)
    }

    /// Found by fuzzing: a count too big for the sums crashed the importer.
    @Test func aSummaryWithAnAbsurdCountIsNotTheSummary() throws {
        for count in ["1444444444444444444444444", "9223372036854775807", "1000000000"] {
            let sink = try importing(
                Data(".\n\nFinished in 0.001 seconds.\n\n4 tests, 2 assertions, \(count) failures, 1 errors\n".utf8))
            let ends = sink.records.compactMap { record -> LedgerEvent.RunEnd? in
                if case .runEnd(let end) = record.event { end } else { nil }
            }
            #expect(ends.allSatisfy { $0.counts == nil }, "\(count): not read as Bacon's totals")
        }
        let kept = try importing(
            Data(".\n\nFinished in 0.001 seconds.\n\n4 tests, 2 assertions, 999999999 failures, 1 errors\n".utf8))
        #expect(
            kept.records.contains {
                if case .runEnd(let end) = $0.event { end.counts?.failures == 999_999_999 } else { false }
            })
    }

    @Test func binaryGarbageIsRejected() async throws {
        var generator = BaconGarbageGenerator(seed: 7)
        let garbage = Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let error = #expect(throws: LedgerInputError.self) { try importing(garbage) }
        #expect(error?.source == "bacon.txt")
        #expect(error?.problem.contains("no Bacon output") == true)
        #expect(!BaconOutputParser.looksLikeBacon(prefix: garbage.prefix(4_096)))
    }

    @Test func garbageAmongBaconLinesIsSkipped() async throws {
        var lines = Self.sample.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("\u{0}\u{1}\u{FFFD}\u{FFFD}garbage\u{7F}", at: 2)
        lines.insert(String(repeating: "\u{FFFD}", count: 10_000), at: 1)
        let parse = try BaconSpecs.parse(lines.joined(separator: "\n"))
        #expect(parse.starts.map(\.test) == ["Cart/adds", "Cart/removes"])
        #expect(parse.runEnds.count == 1)
    }

    @Test func aHundredMegabyteLineIsSkippedByTheParserAndRefusedByTheImporter() async throws {
        let huge = String(repeating: "  - [FAILED", count: 100 << 20 / 11)
        var parser = BaconOutputParser(startedAt: 0)
        let started = ContinuousClock.now
        #expect(try parser.consume(Substring(huge), at: nil).isEmpty)
        // Not a speed target (the benchmark has those): a quadratic reading would take hours, and
        // this turns that hang into a failure however loaded the machine is.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(parser.notes.first?.contains("longer than") == true)
        var events: [LedgerEvent] = []
        for line in Self.sample.split(separator: "\n") { events += try parser.consume(line, at: nil) }
        #expect(events.filter { $0.type == "test.end" }.count == 2)

        var data = Data(Self.sample.utf8)
        data.append(Data(huge.utf8))
        let error = #expect(throws: LedgerInputError.self) { try importing(data) }
        #expect(error?.line == 10)
        #expect(error?.problem.contains("longer than") == true)
    }

    @Test func aLongButAcceptableLineStaysCheap() async throws {
        let line = "  - " + String(repeating: " [x", count: 300_000) + "]"
        let started = ContinuousClock.now
        let parse = try BaconSpecs.parse("Cart\n" + line)
        // A hang guard, not a speed target: quadratic parsing of this line would take hours.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(parse.starts.count == 1)
    }

    @Test func detectionKnowsBaconFromOtherFormats() async throws {
        func looks(_ text: String) -> Bool { BaconOutputParser.looksLikeBacon(prefix: Data(text.utf8)) }
        #expect(looks(Self.sample))
        #expect(looks("Cart\n  - adds\n"))
        #expect(looks(".F\nFinished in 0.1 seconds.\n2 tests, 2 assertions, 1 failures, 0 errors\n"))
        #expect(looks("ok - adds\nnot ok - removes: FAILED\n# Bacon::Error: x\n"))
        #expect(!looks("TAP version 13\nok 1 - adds\n1..1\n"))
        #expect(!looks("ok 1   - adds\nnot ok 2 - removes: FAILED\n1..2\n"))
        #expect(!looks("ok - adds\n1..1\n"), "unnumbered TAP with a plan")
        #expect(!looks("<?xml version=\"1.0\"?>\n<testsuites/>\n"))
        #expect(!looks("{\"v\":1,\"type\":\"run.start\"}\n"))
        #expect(!looks("Calculator\n  adds\n  subtracts (FAILED - 1)\n"), "RSpec's documentation format")
        #expect(!looks(""))
    }

    @Test(.enabled(if: BaconSpecs.bacon != nil, BaconSpecs.skipReason))
    func detectionRecognisesRealOutputs() async throws {
        for option in ["-s", "-q", "-k"] {
            let output = try await BaconSpecs.run([option])
            #expect(BaconOutputParser.looksLikeBacon(prefix: Data(output.stdout.utf8).prefix(4_096)), "\(option)")
        }
        let tap = try await BaconSpecs.run(["-p"])
        #expect(!BaconOutputParser.looksLikeBacon(prefix: Data(tap.stdout.utf8)), "-p is TAP's")
        #expect(throws: LedgerInputError.self) { try BaconSpecs.parse(tap.stdout) }
    }

    struct Unexpected: Error {}
}

/// A small deterministic generator (SplitMix64) for reproducible garbage.
struct BaconGarbageGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
