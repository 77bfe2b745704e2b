import Foundation
import LedgerCore
import Testing

/// Reports written as the producers the reference describes write them: xcbeautify, pytest
/// xunit1, Swift Testing's own `--xunit-output`, and nested suites (junit-10.xsd, trainer).
struct JUnitDialectTests {
    static let start = JUnitHarness.fallbackStart

    @Test func xcbeautifyReportGivesFileAndLineFromItsMessageAndNoTimeForFailures() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites name="All tests" tests="4" failures="2">
                <testsuite name="AppTests.LoginTests" tests="3" failures="1">
                    <testcase classname="AppTests.LoginTests" name="testLoginSucceeds" time="0.054" />
                    <testcase classname="AppTests.LoginTests" name="testLoginFails">
                        <failure message="/Users/ci/My App/AppTests/LoginTests.swift:42 - XCTAssertEqual failed: (&quot;1&quot;) is not equal to (&quot;2&quot;)" />
                    </testcase>
                    <testcase classname="AppTests.LoginTests" name="testSkipped">
                        <skipped />
                    </testcase>
                </testsuite>
                <testsuite name="SwiftTesting" tests="1" failures="1">
                    <testcase classname="SwiftTesting" name="Login rejects a bad password">
                        <failure message="Swift testing test failed" />
                    </testcase>
                </testsuite>
            </testsuites>
            """)
        #expect(
            run.testIDs == [
                "AppTests.LoginTests/testLoginSucceeds", "AppTests.LoginTests/testLoginFails",
                "AppTests.LoginTests/testSkipped", "SwiftTesting/Login rejects a bad password",
            ])
        #expect(run.ends.map(\.outcome) == [.passed, .failed, .skipped, .failed])
        #expect(run.ends.map(\.duration) == [0.054, 0, 0, 0])
        let issue = try #require(run.issues("AppTests.LoginTests/testLoginFails").first)
        #expect(
            issue.message
                == "/Users/ci/My App/AppTests/LoginTests.swift:42 - XCTAssertEqual failed: (\"1\") is not equal to (\"2\")"
        )
        #expect(issue.file == "/Users/ci/My App/AppTests/LoginTests.swift")
        #expect(issue.line == 42)
        #expect(issue.at == Self.start + 0.054)
        #expect(run.end("AppTests.LoginTests/testSkipped")?.message == nil)
        let swiftTesting = try #require(run.issues("SwiftTesting/Login rejects a bad password").first)
        #expect(swiftTesting.message == "Swift testing test failed")
        #expect(swiftTesting.file == nil)
    }

    @Test func pytestXunit1LinesCountFromZeroAndTracebacksGiveTheFailingLine() throws {
        let run = try JUnitHarness.run(
            """
            <?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="2" skipped="0" tests="3" time="0.050" timestamp="2024-03-01T10:00:00.123456+01:00" hostname="ci"><testcase classname="tests.test_math" name="test_adds" file="tests/test_math.py" line="3" time="0.010" /><testcase classname="tests.test_math" name="test_divides" file="tests/test_math.py" line="7" time="0.020"><failure message="ZeroDivisionError: division by zero">def test_divides():
            &gt;       assert 1 / 0
            E       ZeroDivisionError: division by zero

            tests/test_math.py:9: ZeroDivisionError</failure><system-out>dividing now
            </system-out></testcase><testcase classname="tests.test_math" name="test_teardown" file="tests/test_math.py" line="11" time="0.020"><failure message="assert 1 == 2">tests/test_math.py:13: AssertionError</failure><error message="failed on teardown with &quot;RuntimeError: boom&quot;">tests/conftest.py:5: RuntimeError</error></testcase></testsuite></testsuites>
            """)
        let begin = 1_709_283_600.123456  // 2024-03-01T09:00:00.123456Z
        #expect(JUnitHarness.close(run.runStart?.at, begin))
        #expect(run.starts.map(\.file) == Array(repeating: "tests/test_math.py", count: 3))
        #expect(run.starts.map(\.line) == [4, 8, 12])
        let divides = "tests.test_math/test_divides"
        #expect(run.issues(divides).map(\.file) == ["tests/test_math.py"])
        #expect(run.issues(divides).map(\.line) == [9])
        // A failed test's own output is kept as its test.end message.
        #expect(run.end(divides)?.message == "dividing now")
        #expect(run.end("tests.test_math/test_adds")?.message == nil)
        // Failing in the test and in its teardown: failed, with an assertion and an error.
        let teardown = "tests.test_math/test_teardown"
        #expect(run.outcomes(teardown) == [.failed])
        #expect(run.issues(teardown).map(\.kind) == [.assertion, .error])
        #expect(
            run.issues(teardown).map(\.message) == ["assert 1 == 2", "failed on teardown with \"RuntimeError: boom\""])
        #expect(run.issues(teardown).map(\.file) == ["tests/test_math.py", "tests/conftest.py"])
        #expect(run.issues(teardown).map(\.line) == [13, 5])
    }

    @Test func lineAttributesOfOtherProducersAreKeptAsWritten() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="CalculatorTest" file="/app/tests/CalculatorTest.php">
            <testcase name="testAdd" class="CalculatorTest" classname="CalculatorTest" file="/app/tests/CalculatorTest.php" line="12" assertions="1" time="0.001"/>
            <testcase name="testSub" classname="CalculatorTest" time="0.001"/>
            </testsuite></testsuites>
            """)
        #expect(run.starts.map(\.line) == [12, nil])
        // A testcase without `file` inherits its suite's.
        #expect(run.starts.map(\.file) == ["/app/tests/CalculatorTest.php", "/app/tests/CalculatorTest.php"])
    }

    @Test func swiftTestingXunitGivesAnIssuePerFailureAndSkipsWithoutTime() throws {
        let run = try JUnitHarness.run(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="TestResults" errors="0" tests="4" failures="2" skipped="2" time="0.004">
                <testcase classname="MyCLITests" name="helloworld()" time="0.000832083">
                  <failure message="Expectation failed: (greeting &#8594; &quot;hello, world!&quot;) == &quot;hello, worldz!&quot;" />
                  <failure message="Expectation failed: 1 == 2&#10;with a second line" />
                </testcase>
                <testcase classname="MyCLITests.Nested" name="passes(label:)" time="0.001" />
                <testcase classname="MyCLITests" name="later()" >
                  <skipped>not ready &#128679;</skipped>
                </testcase>
                <testcase classname="MyCLITests" name="alsoSkipped()" ><skipped /></testcase>
              </testsuite>
            </testsuites>
            """)
        #expect(
            run.testIDs == [
                "MyCLITests/helloworld()", "MyCLITests.Nested/passes(label:)", "MyCLITests/later()",
                "MyCLITests/alsoSkipped()",
            ])
        #expect(run.ends.map(\.outcome) == [.failed, .passed, .skipped, .skipped])
        #expect(run.ends.map(\.duration) == [0.000832083, 0.001, 0, 0])
        #expect(
            run.issues("MyCLITests/helloworld()").map(\.message) == [
                "Expectation failed: (greeting → \"hello, world!\") == \"hello, worldz!\"",
                "Expectation failed: 1 == 2\nwith a second line",
            ])
        #expect(run.issues("MyCLITests/helloworld()").allSatisfy { $0.attempt == 1 && $0.kind == .assertion })
        #expect(run.end("MyCLITests/later()")?.message == "not ready 🚧")
        #expect(run.end("MyCLITests/alsoSkipped()")?.message == nil)
        #expect(run.start("MyCLITests.Nested/passes(label:)")?.suite == "MyCLITests.Nested")
    }

    @Test func nestedSuitesLendTheirNameAndClockToTestcasesAtAnyDepth() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites>
              <testsuite name="Outer" timestamp="2024-01-01T00:00:00Z">
                <testsuite name="Middle">
                  <testsuite name="Inner"><testcase name="deep" time="1.5"/></testsuite>
                  <testcase name="middle" time="2"/>
                </testsuite>
                <testcase name="outer" classname="" time="0.5"/>
              </testsuite>
              <testsuite name="Second" timestamp="2024-01-01T01:00:00">
                <testcase name="second" classname="Second.Class" time="1,000.25"/>
              </testsuite>
              <testcase name="orphan"/>
            </testsuites>
            """)
        let midnight = 1_704_067_200.0  // 2024-01-01T00:00:00Z
        #expect(
            run.testIDs == ["Inner/deep", "Middle/middle", "Outer/outer", "Second.Class/second", "(unknown)/orphan"])
        #expect(run.starts.map(\.suite) == ["Inner", "Middle", "Outer", "Second.Class", "(unknown)"])
        #expect(
            run.starts.map(\.at) == [
                midnight, midnight + 1.5, midnight + 3.5, midnight + 3_600, midnight + 3_600 + 1_000.25,
            ])
        #expect(run.end("Second.Class/second")?.duration == 1_000.25)
        #expect(run.runStart?.at == midnight)
        #expect(run.runEnd?.at == midnight + 3_600 + 1_000.25)
    }

    @Test func singleTestsuiteRootIsAccepted() throws {
        let run = try JUnitHarness.run(
            #"<testsuite name="Only" tests="1"><testcase classname="A" name="b" time="0.1"/></testsuite>"#)
        #expect(run.types == ["run.start", "test.start", "test.end", "run.end"])
        #expect(run.testIDs == ["A/b"])
    }

    @Test func swiftPMsOwnFilesSayWhatTheyLose() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../Fixtures/RealWorld/swift-xunit").standardizedFileURL
        let xctest = try JUnitHarness.run(file: folder.appending(path: "xctest-parallel-swift-6.3.1.xml"))
        #expect(xctest.outcomes("AcmeTests.CartXCTests/testSkipped") == [.passed], "what the file says")
        #expect(xctest.warnings.count == 1)
        #expect(xctest.warnings.first?.contains("skipped XCTest test into this file as passed") == true)
        let swiftTesting = try JUnitHarness.run(file: folder.appending(path: "swift-testing-swift-6.3.1.xml"))
        #expect(swiftTesting.outcomes("AcmeTests.CartTests/disabled()") == [.skipped])
        #expect(swiftTesting.outcomes("AcmeTests.CartTests/parameterized(x:)") == [.failed])
        #expect(swiftTesting.warnings.count == 1)
        #expect(swiftTesting.warnings.first?.contains("--event-stream-output-path") == true)
        let other = try JUnitHarness.run(
            #"<testsuites><testsuite name="TestResults" errors="1"><testcase classname="A" name="b"/></testsuite></testsuites>"#
        )
        #expect(other.warnings.isEmpty, "another tool's suite of that name")
    }
}
