import Foundation
import LedgerCore
import LedgerImport
import Testing

/// TAP14 subtests: 4 spaces of indentation per level, named by `# Subtest:` at either
/// indentation or by the test point that closes them; a subtest with tests is a suite.
struct TAPSubtestTests {
    @Test func aSubtestAnnouncedAtTheParentsIndentationNamesItsTests() throws {
        let run = try TAPSamples.run(
            """
            TAP version 14
            # Subtest: outer
                # Subtest: leaf
                ok 1 - leaf
                # Subtest: inner
                    ok 1 - deep
                    1..1
                ok 2 - inner
                1..2
            ok 1 - outer
            1..1
            """)
        #expect(run.testIDs == ["outer/leaf", "outer / inner/deep"])
        #expect(run.start("outer / inner/deep")?.suite == "outer / inner")
        #expect(run.start("outer / inner/deep")?.name == "deep")
        #expect(run.warnings.isEmpty)
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func aSubtestAnnouncedAtTheChildsIndentationNamesItsTests() throws {
        let run = try TAPSamples.run(
            """
            TAP version 14
                # Subtest: first
                ok 1 - a
                    # Subtest: nested
                    ok 1 - b
                    1..1
                ok 2 - nested
                1..2
            ok 1 - first
                # Subtest: second
                ok 1 - c
                1..1
            ok 2 - second
            1..2
            """)
        #expect(run.testIDs == ["first/a", "first / nested/b", "second/c"])
        #expect(run.warnings.isEmpty)
    }

    @Test func anUnannouncedSubtestsTestsWaitForTheNameItsClosingPointGives() throws {
        let (events, notes) = try TAPSamples.live([
            ("TAP version 14", 0),
            ("1..2", 0),
            ("    1..2", 1),
            ("    ok 1", 2),
            ("    ok 2 - this passed", 3),
            ("ok 1 - foo.tap", 4),
            ("ok 2 - bar", 5),
        ])
        // The spec's own example: the child's tests go out once `ok 1 - foo.tap` names them.
        #expect(events[0...4].allSatisfy { $0.isEmpty })
        let named = events[5].compactMap { if case .testStart(let start) = $0 { start.test } else { nil } }
        #expect(named == ["foo.tap/test 1", "foo.tap/this passed"])
        #expect(notes.isEmpty)
    }

    @Test func aPassingSubtestWithTestsIsASuiteAndOneWithoutTestsIsATest() throws {
        let run = try TAPSamples.run(
            """
            # Subtest: suite
                ok 1 - inside
                1..1
            ok 1 - suite
            # Subtest: empty
                1..0 # nothing to do
            ok 2 - empty
            1..2
            """)
        #expect(run.testIDs == ["suite/inside", "empty"])
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func aFailingSubtestWhoseTestsAllPassedIsRecordedAsAFailedTest() throws {
        let run = try TAPSamples.run(
            """
            # Subtest: setup throws
                ok 1 - first
                1..2
            not ok 1 - setup throws
              ---
              message: 'planned 2, ran 1'
              at:
                file: test/setup.js
                line: 12
              ...
            # Subtest: has a failure
                not ok 1 - broken
                1..1
            not ok 2 - has a failure
            1..2
            """)
        #expect(run.testIDs == ["setup throws/first", "setup throws", "has a failure/broken"])
        #expect(run.outcomes("setup throws") == [.failed])
        #expect(run.issues("setup throws").map(\.message) == ["planned 2, ran 1"])
        #expect(run.issues("setup throws").map(\.file) == ["test/setup.js"])
        #expect(run.end("setup throws")?.message == "the subtest failed, though none of its tests did")
        // A subtest that failed because one of its tests did is only a suite.
        #expect(run.start("has a failure") == nil)
        #expect(run.warnings == ["input: line 2: subtest 'setup throws' planned 2 tests and ran 1"])
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func aSubtestNeverClosedIsNamedSubtestAndNoted() throws {
        let run = try TAPSamples.run(
            """
            TAP version 14
                ok 1 - orphan
            """)
        #expect(run.testIDs == ["subtest/orphan"])
        #expect(
            run.warnings == [
                "input: line 2: subtest 'subtest' has no test point closing it",
                "input: line 2: no plan: the stream may have been cut short",
            ])
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func deeplyNestedSubtestsAreRead() throws {
        let depth = 300
        var lines = ["TAP version 14"]
        for level in 0..<depth { lines.append(String(repeating: " ", count: level * 4) + "# Subtest: s\(level)") }
        lines.append(String(repeating: " ", count: depth * 4) + "ok 1 - bottom")
        for level in stride(from: depth - 1, through: 0, by: -1) {
            lines.append(String(repeating: " ", count: level * 4) + "ok 1 - s\(level)")
        }
        lines.append("1..1")
        let run = try TAPSamples.run(lines.joined(separator: "\n"))
        let path = (0..<depth).map { "s\($0)" }.joined(separator: " / ")
        #expect(run.testIDs == ["\(path)/bottom"])
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func aBufferedSubtestIsReadAsTheStreamedOneItStandsFor() throws {
        let run = try TAPSamples.run(
            """
            TAP version 13
            ok 1 - nesting {
                1..2
                ok 1 - first {
                    ok 1 - true is ok

                    ok 2 - also ok
                    1..2
                }
                not ok 2 - second {
                    not ok 1 - broke
                    1..1
                }
            }
            not ok 2 - empty {
                1..0
            }
            ok 3 - ends in a brace {
            ok 4 - plain
            1..4
            """)
        #expect(
            run.testIDs == [
                "nesting / first/true is ok", "nesting / first/also ok", "nesting / second/broke", "empty",
                "ends in a brace {", "plain",
            ])
        #expect(run.outcomes("nesting / second/broke") == [.failed])
        #expect(run.outcomes("empty") == [.failed], "a subtest with no tests of its own is a test")
        #expect(run.warnings.isEmpty)
        #expect(run.runEnd?.outcome == .failed)
    }
}
