import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerImport

/// A testcase that repeats an earlier one's classname and name: a test of its own unless the file,
/// its tool or the caller says it is a retry.
@Suite struct JUnitRepeatTests {
    /// A failure, another test, then a pass of the failing test's classname and name.
    static let failThenPass = """
        <testcase classname="A" name="b" time="1"><failure message="no"/></testcase>
        <testcase classname="A" name="c" time="1"/>
        <testcase classname="A" name="b" time="2"/>
        """

    static func document(_ testcases: String, root: String = "<testsuites>", properties: String = "") -> String {
        "\(root)<testsuite name=\"S\">\(properties)\(testcases)</testsuite></testsuites>"
    }

    @Test func anUnmarkedRepeatIsATestOfItsOwnAndItsFailureStands() throws {
        let run = try JUnitHarness.run(Self.document(Self.failThenPass))
        #expect(run.ends.map(\.test) == ["A/b", "A/c", "A/b (2)"])
        #expect(run.ends.map(\.attempt) == [1, 1, 1])
        #expect(run.outcomes("A/b") == [.failed], "a later pass of the same name does not make it flaky")
        #expect(run.outcomes("A/b (2)") == [.passed])
        #expect(run.runEnd?.outcome == .failed)
        #expect(
            run.warnings == [
                "report.xml: 1 testcase(s) repeat an earlier one's classname and name and are stored as tests of their own, such as \"A/b (2)\"; if they are retries, ingest the file with --repeats retries"
            ])
    }

    @Test func repeatsAreNumberedPastIdsTheFileAlreadyUses() throws {
        let run = try JUnitHarness.run(
            Self.document(
                """
                <testcase classname="A" name="b"/><testcase classname="A" name="b (2)"/>
                <testcase classname="A" name="b"/><testcase classname="A" name="b"/>
                """))
        #expect(run.ends.map(\.test) == ["A/b", "A/b (2)", "A/b (3)", "A/b (4)"])
        #expect(Set(run.ends.map(\.test)).count == 4, "no two testcases share a test")
        #expect(run.warnings.first?.contains("2 testcase(s)") == true)
    }

    @Test func repeatsAskedForAsRetriesAreAttemptsAndTheLastDecides() throws {
        let run = try JUnitHarness.run(Self.document(Self.failThenPass), repeats: .retries)
        #expect(run.ends.map(\.test) == ["A/b", "A/c", "A/b"])
        #expect(run.ends.map(\.attempt) == [1, 1, 2])
        #expect(run.outcomes("A/b") == [.failed, .passed])
        #expect(run.start("A/b", attempt: 2)?.at == JUnitHarness.fallbackStart + 2)
        #expect(run.runEnd == LedgerEvent.RunEnd(at: JUnitHarness.fallbackStart + 4, outcome: .passed))
        #expect(
            run.warnings == [
                "report.xml: 1 testcase(s) repeat an earlier one's classname and name and are stored as its retries (--repeats retries)"
            ])
    }

    @Test func trainersRepetitionPropertyMarksRetriesUnlessTheCallerSaysTests() throws {
        let marked = """
            <testcase classname="A" name="b"><failure message="no"/><properties><property name="repetition" value="Retry 1"/></properties></testcase>
            <testcase classname="A" name="b"><properties><property name="repetition" value="Retry 2"/></properties></testcase>
            """
        let retried = try JUnitHarness.run(Self.document(marked))
        #expect(retried.outcomes("A/b") == [.failed, .passed])
        #expect(retried.warnings.first?.hasSuffix("(the file or the tool that wrote it marks them so)") == true)
        let apart = try JUnitHarness.run(Self.document(marked), repeats: .tests)
        #expect(apart.outcomes("A/b") == [.failed] && apart.outcomes("A/b (2)") == [.passed])
        #expect(apart.warnings.first?.hasSuffix("such as \"A/b (2)\"") == true, "no fix offered for what was asked")
    }

    @Test(arguments: [
        (
            "go test",
            document(
                failThenPass,
                properties: #"<properties><property name="go.version" value="go1.22.1 linux/amd64"/></properties>"#)
        ),
        ("xcpretty", document(failThenPass, root: #"<testsuites name='AppTests.xctest' tests='3' failures='1'>"#)),
        ("xcbeautify", document(failThenPass, root: #"<testsuites name="All tests" tests="3" failures="1">"#)),
    ])
    func toolsThatWriteRetriesAsRepeatsAreReadAsRetries(tool: String, xml: String) throws {
        let run = try JUnitHarness.run(xml)
        #expect(run.outcomes("A/b") == [.failed, .passed], "\(tool)")
        #expect(run.ends.map(\.test).contains("A/b (2)") == false)
    }

    @Test func aRootWithMoreThanXcbeautifysAttributesIsNotXcbeautify() throws {
        let jest = Self.document(
            Self.failThenPass, root: #"<testsuites name="jest tests" tests="3" failures="1" errors="0" time="4">"#)
        let run = try JUnitHarness.run(jest)
        #expect(run.outcomes("A/b") == [.failed])
        #expect(run.outcomes("A/b (2)") == [.passed])
    }

    @Test(arguments: [
        (#"status="disabled""#, true), (#"status="NotRun""#, true), (#"status="skipped""#, true),
        (#"status="run" result="suppressed""#, true), (#"status="run" result="skipped""#, true),
        (#"status="run" result="completed""#, false), (#"status="passed""#, false),
    ])
    func aSkipWrittenOnlyAsAnAttributeIsASkip(attributes: String, skipped: Bool) throws {
        let run = try JUnitHarness.run(
            Self.document(#"<testcase classname="A" name="b" \#(attributes) time="0"/>"#))
        #expect(run.outcomes("A/b") == [skipped ? .skipped : .passed], "\(attributes)")
        let failing = try JUnitHarness.run(
            Self.document(#"<testcase classname="A" name="b" \#(attributes)><failure message="no"/></testcase>"#))
        #expect(failing.outcomes("A/b") == [.failed], "a failure element outweighs the attribute")
    }
}
