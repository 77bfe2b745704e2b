import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// How a testcase's children become outcomes, issues and messages.
struct JUnitOutcomeTests {
    static func one(_ testcase: String) throws -> ImportedRun {
        try JUnitHarness.run("<testsuites><testsuite name=\"S\">\(testcase)</testsuite></testsuites>")
    }

    @Test func importsSkippedTestcaseAsSkippedWithItsReason() throws {
        let run = try Self.one(
            #"<testcase classname="A" name="b" time="0.5"><skipped message="flaky on CI"/></testcase>"#)
        #expect(
            run.ends == [
                LedgerEvent.TestEnd(
                    at: JUnitHarness.fallbackStart + 0.5, test: "A/b", outcome: .skipped, duration: 0.5,
                    message: "flaky on CI")
            ])
        #expect(run.issues.isEmpty)
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func skipReasonFallsBackToTheFirstLineOfTheSkippedText() throws {
        let run = try Self.one(
            "<testcase classname=\"A\" name=\"b\"><skipped>\n\n  /x/test_a.py:3: no network\n more</skipped></testcase>"
        )
        #expect(run.end("A/b")?.message == "/x/test_a.py:3: no network")
    }

    @Test func pytestXfailIsAnExpectedFailure() throws {
        let run = try Self.one(
            #"<testcase classname="A" name="b"><skipped type="pytest.xfail" message="known bug"/></testcase>"#)
        #expect(run.outcomes("A/b") == [.expectedFailure])
        #expect(run.end("A/b")?.message == "known bug")
    }

    @Test func errorElementMakesAnErrorOutcomeAndAnErrorIssue() throws {
        let run = try Self.one(
            #"<testcase classname="A" name="b"><error message="boom" type="RuntimeError">trace</error></testcase>"#)
        #expect(run.outcomes("A/b") == [.error])
        #expect(run.issues("A/b").map(\.kind) == [.error])
        #expect(run.issues("A/b").map(\.message) == ["boom"])
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func failureWinsOverErrorAndSkipped() throws {
        let run = try Self.one(
            #"<testcase classname="A" name="b"><skipped/><error message="e"/><failure message="f"/></testcase>"#)
        #expect(run.outcomes("A/b") == [.failed])
        #expect(run.issues("A/b").map(\.message) == ["e", "f"])
    }

    @Test func issueMessageFallsBackToTextThenTypeThenElementName() throws {
        let run = try Self.one(
            """
            <testcase classname="A" name="text"><failure message="  ">

              first line
            second</failure></testcase>
            <testcase classname="A" name="type"><failure type="AssertionError"/></testcase>
            <testcase classname="A" name="bare"><error/></testcase>
            """)
        #expect(run.issues("A/text").map(\.message) == ["first line"])
        #expect(run.issues("A/type").map(\.message) == ["AssertionError"])
        #expect(run.issues("A/bare").map(\.message) == ["error"])
    }

    @Test func cdataTextIsReadLikeText() throws {
        let run = try Self.one(
            "<testcase classname=\"A\" name=\"b\"><failure><![CDATA[<not> & markup\n/src/A.swift:9: error]]></failure></testcase>"
        )
        #expect(run.issues("A/b").map(\.message) == ["<not> & markup"])
        #expect(run.issues("A/b").map(\.file) == ["/src/A.swift"])
        #expect(run.issues("A/b").map(\.line) == [9])
    }

    @Test func outputIsKeptOnlyForFailedTestsAndCutToItsLast4KB() throws {
        let long = String(repeating: "0123456789", count: 1_000) + "THE END"
        let run = try Self.one(
            """
            <testcase classname="A" name="passes"><system-out>hello</system-out></testcase>
            <testcase classname="A" name="fails"><failure/><system-out>\(long)</system-out><system-err>oops</system-err></testcase>
            """)
        #expect(run.end("A/passes")?.message == nil)
        let message = try #require(run.end("A/fails")?.message)
        #expect(message.hasPrefix("…"))
        #expect(message.hasSuffix("THE END\noops"))
        #expect(message.utf8.count <= 4 * 1024 + "…".utf8.count)
    }

    @Test(arguments: [
        ("1,234.5", 1_234.5), ("0.25", 0.25), (" 3 ", 3.0), ("abc", 0.0), ("-2", 0.0), ("", 0.0),
        ("nan", 0.0), ("1e99", 365.0 * 86_400),
    ])
    func durationsAreReadLeniently(time: String, expected: Double) throws {
        let run = try Self.one("<testcase classname=\"A\" name=\"b\" time=\"\(time)\"/>")
        #expect(run.end("A/b")?.duration == expected)
    }

    @Test func missingTimeIsZero() throws {
        let run = try Self.one(#"<testcase classname="A" name="b"/>"#)
        #expect(run.end("A/b")?.duration == 0)
    }

    @Test func testcaseTimestampIsItsStart() throws {
        let run = try Self.one(
            #"<testcase classname="A" name="b" time="1" timestamp="2024-01-01T00:00:10Z"/><testcase classname="A" name="c" time="1"/>"#
        )
        #expect(run.start("A/b")?.at == 1_704_067_210)
        #expect(run.start("A/c")?.at == 1_704_067_211)
    }

    @Test func testcasePropertiesGiveTagsInOrder() throws {
        let run = try Self.one(
            #"<testcase classname="A" name="b"><properties><property name="tag2" value="ui"/><property name="tagline" value="x"/><property name="tag10" value="slow"/><property name="repetition" value="First Run"/></properties></testcase>"#
        )
        #expect(run.start("A/b")?.tags == ["ui", "slow"])
    }

    @Test func documentWithoutTestcasesStillOpensAndClosesTheRun() throws {
        let run = try JUnitHarness.run(
            #"<testsuites tests="5" failures="2"><testsuite name="empty" tests="5"/></testsuites>"#)
        #expect(run.types == ["run.start", "run.end"])
        #expect(run.runStart?.at == JUnitHarness.fallbackStart)
        #expect(run.runEnd == LedgerEvent.RunEnd(at: JUnitHarness.fallbackStart, outcome: .passed))
    }
}
