import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Written samples for each rule of the TAP line grammar: test points, directives, escapes,
/// time metadata, version lines and plans.
struct TAPLineGrammarTests {
    @Test func testPointsReadWithOrWithoutNumbersAndDashes() throws {
        let run = try TAPSamples.run(
            """
            TAP version 14
            ok 1 - numbered with dash
            ok 2 numbered without dash
            ok - unnumbered with dash
            ok unnumbered without dash
            not ok 5 - -5 keeps its minus
            ok 6   - Bacon pads the number
            ok 7
            ok
            ok 10th place is a description
            okay is not a test point
            1..10
            """)
        #expect(
            run.testIDs == [
                "numbered with dash", "numbered without dash", "unnumbered with dash",
                "unnumbered without dash", "-5 keeps its minus", "Bacon pads the number", "test 7",
                "test 8", "10th place is a description",
            ])
        #expect(run.outcomes("-5 keeps its minus") == [.failed])
        #expect(run.issues("-5 keeps its minus").map(\.message) == ["not ok 5 - -5 keeps its minus"])
        #expect(run.warnings == ["input: line 12: planned 10 tests and ran 9"])
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test(
        arguments: [
            ("ok 1 - a # SKIP no network", Outcome.skipped, "no network"),
            ("not ok 1 - a # skip lower case", .skipped, "lower case"),
            ("ok 1 - a # Skipped: WWW::Mechanize not installed", .skipped, "WWW::Mechanize not installed"),
            ("ok 1 - a #SKIP", .skipped, nil),
            ("not ok 1 - a # TODO not written", .expectedFailure, "not written"),
            ("not ok 1 - a # todo", .expectedFailure, nil),
            ("ok 1 - a # TODO bonus", .passed, "TODO passed: bonus"),
            ("ok 1 - a # Todos are fine", .passed, "TODO passed: are fine"),
        ] as [(String, Outcome, String?)])
    func directivesAreCaseInsensitiveAndMayCarryAReason(line: String, outcome: Outcome, message: String?) throws {
        let run = try TAPSamples.run("\(line)\n1..1\n")
        #expect(run.testIDs == ["a"])
        #expect(run.outcomes("a") == [outcome])
        #expect(run.end("a")?.message == message)
        #expect(run.issues.isEmpty)
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func anUnknownDirectiveStaysInTheDescription() throws {
        let run = try TAPSamples.run("not ok 1 - a # FIXME later\nok 2 - c#SKIP is no directive\n1..2\n")
        #expect(run.testIDs == ["a # FIXME later", "c#SKIP is no directive"])
        #expect(run.outcomes("a # FIXME later") == [.failed])
    }

    @Test func escapedHashesAndBackslashesArePartOfTheDescription() throws {
        let run = try TAPSamples.run(
            ##"""
            ok 1 - issue \# 42 is fixed # SKIP not \# really
            ok 2 - a \\ backslash and a \n kept
            1..2
            """##)
        #expect(run.testIDs == [#"issue # 42 is fixed"#, #"a \ backslash and a \n kept"#])
        #expect(run.end(#"issue # 42 is fixed"#)?.message == "not # really")
        #expect(run.outcomes(#"issue # 42 is fixed"#) == [.skipped])
    }

    @Test func timeMetadataIsADurationNotADirective() throws {
        let run = try TAPSamples.run(
            """
            ok 1 - fast # time=2.5ms
            ok 2 - slow # time=1.25s
            ok 3 - bare # time=40
            ok 4 - odd unit # time=3h
            1..4
            """)
        #expect(run.testIDs == ["fast", "slow", "bare", "odd unit # time=3h"])
        #expect(run.ends.map(\.duration) == [0.0025, 1.25, 0.04, 0])
        #expect(run.starts.map(\.at) == [0, 0.0025, 1.2525, 1.2925].map { ImportedRun.start + $0 })
    }

    @Test(arguments: ["TAP version 13", "TAP Version 13", "tap VERSION 14", "TAP version 14"])
    func versionLinesAreReadInAnyCase(line: String) throws {
        let run = try TAPSamples.run("\(line)\n1..1\nok 1 - a\n")
        #expect(run.testIDs == ["a"])
        #expect(run.warnings.isEmpty)
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func anUnknownVersionIsReadAsTAP14WithANote() throws {
        let run = try TAPSamples.run("TAP version 99\n1..1\nok 1 - a\n")
        #expect(run.testIDs == ["a"])
        #expect(run.warnings == ["input: line 1: unknown TAP version; read as TAP 14"])
    }

    @Test func thePlanMayComeBeforeOrAfterTheTests() throws {
        let before = try TAPSamples.run("1..2\nok 1 - a\nok 2 - b\n")
        let after = try TAPSamples.run("ok 1 - a\nok 2 - b\n1..2\n")
        for run in [before, after] {
            #expect(run.testIDs == ["a", "b"])
            #expect(run.warnings.isEmpty)
            #expect(run.runEnd?.outcome == .passed)
        }
    }

    @Test func aSkipAllPlanRecordsNoTestAndPassesWithItsReason() throws {
        let run = try TAPSamples.run("1..0 # Skipped: WWW::Mechanize not installed\n")
        #expect(run.types == ["run.start", "run.end"])
        #expect(run.runEnd == LedgerEvent.RunEnd(at: ImportedRun.start, outcome: .passed))
        #expect(
            run.warnings == ["input: line 1: the plan 1..0 skips every test: Skipped: WWW::Mechanize not installed"])
    }

    @Test func anUnmetPlanFailsTheRunWithANote() throws {
        let run = try TAPSamples.run("1..3\nok 1 - a\nok 2 - b\n")
        #expect(run.ends.map(\.outcome) == [.passed, .passed])
        #expect(run.runEnd?.outcome == .failed)
        #expect(run.warnings == ["input: line 3: planned 3 tests and ran 2"])
    }

    @Test func aTestNumberOutsideThePlanFailsTheRun() throws {
        let run = try TAPSamples.run("1..2\nok 1 - a\nok 7 - b\n")
        #expect(run.runEnd?.outcome == .failed)
        #expect(run.warnings == ["input: line 3: test number 7 is outside the plan 1..2"])
    }

    @Test func linesItDoesNotKnowAreIgnored() throws {
        let run = try TAPSamples.run(
            """
            TAP version 14
            pragma +strict
            this line is nobody's business
            # a comment before any test
            ok 1 - a
            # tests 1
            # duration_ms 13.879834
            1..1
            """)
        #expect(run.testIDs == ["a"])
        #expect(run.warnings.isEmpty)
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func testsWithTheSameNameGetNumberedIDs() throws {
        let run = try TAPSamples.run("ok 1 - same\nnot ok 2 - same\nok 3 - same (2)\nok 4 - same\n1..4\n")
        #expect(run.testIDs == ["same", "same (2)", "same (2) (2)", "same (3)"])
        #expect(run.starts.map(\.name) == ["same", "same", "same (2)", "same"])
        #expect(run.outcomes("same (2)") == [.failed])
        #expect(run.starts.allSatisfy { $0.attempt == 1 }, "repeated names are other tests, not retries")
    }

    @Test func windowsLineEndingsAreRead() throws {
        let run = try TAPSamples.run("TAP version 13\r\n1..1\r\nnot ok 1 - a\r\n  ---\r\n  message: boom\r\n  ...\r\n")
        #expect(run.testIDs == ["a"])
        #expect(run.issues.map(\.message) == ["boom"])
        #expect(run.warnings.isEmpty)
    }
}
