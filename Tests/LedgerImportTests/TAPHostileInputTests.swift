import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Input a TAP importer must survive: cut short, garbage, huge, unterminated, or with names
/// that look like something else.
struct TAPHostileInputTests {
    @Test func aStreamCutShortWithoutItsPlanStillImportsAndIsMarkedFailed() throws {
        let run = try TAPSamples.run(
            """
            TAP version 13
            # Subtest: suite
            ok 1 - suite
            ok 2 - second
            not ok 3 - th
            """)
        #expect(run.testIDs == ["suite", "second", "th"])
        #expect(run.runEnd?.outcome == .failed)
        #expect(run.warnings == ["input: line 5: no plan: the stream may have been cut short"])
    }

    @Test func aStreamCutShortInsideASubtestKeepsItsTests() throws {
        let run = try TAPSamples.run("TAP version 14\n1..1\n# Subtest: outer\n    ok 1 - inner\n    not ok 2 - cut")
        #expect(run.testIDs == ["outer/inner", "outer/cut"])
        #expect(run.runEnd?.outcome == .failed)
        #expect(
            run.warnings == [
                "input: line 4: subtest 'outer' has no test point closing it",
                "input: line 5: planned 1 tests and ran 0",
            ])
    }

    @Test func binaryGarbageIsAClearError() throws {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Make sure no line of it happens to read as TAP.
        for index in bytes.indices where bytes[index] == 0x0A { bytes[index] = 0x00 }
        let error = try ImportedRun.failure(Data(bytes), with: TAPImporter())
        #expect(error.source == "input")
        #expect(error.problem == "no TAP found: no version line, plan or test point")
        #expect(error.fix?.contains("TAP output") == true)
    }

    @Test func garbageLinesBetweenTestPointsAreIgnored() throws {
        var data = Data("1..2\nok 1 - a\n".utf8)
        data.append(contentsOf: [0xFF, 0xFE, 0x00, 0x01, 0x0A, 0xC3, 0x28, 0x0A])
        data.append(Data("\u{1B}[31mcolour\u{1B}[0m\nok 2 - b\n".utf8))
        let run = try ImportedRun.importing(data, with: TAPImporter())
        #expect(run.testIDs == ["a", "b"])
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func aLineLongerThanTheLimitIsAnErrorNamingIt() throws {
        var data = Data("TAP version 14\nok 1 - a\n".utf8)
        data.append(Data(repeating: UInt8(ascii: "x"), count: 100 << 20))
        data.append(Data("\nok 2 - b\n".utf8))
        let error = try ImportedRun.failure(data, with: TAPImporter())
        #expect(error.line == 3)
        #expect(error.problem == "line is longer than the 64 MiB limit")
    }

    @Test func anUnterminatedYAMLBlockIsClosedAtTheEndWithWhatWasRead() throws {
        let run = try TAPSamples.run(
            """
            1..1
            not ok 1 - a
              ---
              message: kept
              at:
                file: a.js
                line: 3
            """)
        #expect(run.issues.map(\.message) == ["kept"])
        #expect(run.issues.map(\.line) == [3])
        #expect(
            run.warnings == [
                "input: line 3: the YAML block has no `...` before the end of the stream; kept what was read"
            ])
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func namesThatLookLikeJSONSQLOrPathsStayLiteral() throws {
        let hostile = [
            #"x", "type": "run.end"}"#, "Robert'); DROP TABLE tests;--", "../../etc/passwd", "a / b/c",
            "\u{07}bell and \u{202E}reversed", "<script>alert(1)</script>", "%s%n%x",
        ]
        let children = hostile.enumerated().map { "    ok \($0.offset + 1) - \($0.element)" }
        let lines = ["# Subtest: x\", \"y"] + children + ["ok 1 - x\", \"y", "1..1"]
        let run = try TAPSamples.run(lines.joined(separator: "\n"))
        #expect(run.starts.map(\.name) == hostile)
        #expect(run.starts.allSatisfy { $0.suite == "x\", \"y" })
        // Encoded and decoded as the event stream, every record comes back as it was.
        let encoder = JSONEncoder()
        let decoded = try run.records.map { try JSONDecoder().decode(LedgerRecord.self, from: encoder.encode($0)) }
        #expect(decoded == run.records)
    }

    @Test func aHugeNumberOfTestsKeepsOnlyWhatTheyNeed() throws {
        let count = 20_000
        let text = (1...count).map { "ok \($0) - test \($0 % 7)" }.joined(separator: "\n") + "\n1..\(count)\n"
        let run = try TAPSamples.run(text)
        #expect(run.starts.count == count)
        #expect(Set(run.starts.map(\.test)).count == count)
        #expect(run.runEnd?.outcome == .passed)
    }
}
