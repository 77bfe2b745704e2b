import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// The real reports with retries (Surefire reruns, fastlane trainer repetitions), read in
/// place from ../shared/fixtures/formats and checked field by field.
@Suite(.enabled(if: FixtureFiles.available, Comment(rawValue: FixtureFiles.skipReason)))
struct JUnitRetryFixtureTests {
    static let start = JUnitHarness.fallbackStart

    @Test func surefireFlakyFailuresBecomeFailedAttemptsBeforeTheFinalPass() throws {
        let run = try JUnitFixtureTests.importFixture("junit-surefire-flaky.xml")
        let flaky = "org.acme.FlakyTest/testFlaky"
        #expect(run.runStart?.at == Self.start)
        // The suite says tests="1": counts are ignored, both testcases are there.
        #expect(run.testIDs == [flaky, "org.acme.FlakyTest/testStable"])
        #expect(run.outcomes(flaky) == [.failed, .failed, .failed, .error, .passed])
        let messages = ["<0>", "<3>", "<4>", "<0>"].map { "expected: <1> but was: \($0)" }
        for (index, message) in messages.enumerated() {
            let issues = run.issues(flaky, attempt: index + 1)
            #expect(issues.map(\.message) == [message])
            #expect(issues.map(\.kind) == [index == 3 ? .error : .assertion])
            // The frame of the test method itself, not the framework's first frame.
            #expect(issues.map(\.file) == ["FlakyTest.java"])
            #expect(issues.map(\.line) == [18])
        }
        // A failed attempt keeps its own output; the flakyError also has system-err.
        let first = try #require(run.end(flaky, attempt: 1)?.message)
        #expect(first.hasPrefix("2023-06-23 17:27:31,351 INFO  [io.quarkus]"))
        #expect(run.end(flaky, attempt: 4)?.message?.hasSuffix("\nTest system.err") == true)
        #expect(run.issues(flaky, attempt: 5).isEmpty)
        let last = try #require(run.end(flaky, attempt: 5))
        #expect(
            last
                == LedgerEvent.TestEnd(
                    at: Self.start + 0.034, test: flaky, attempt: 5, outcome: .passed, duration: 0.034))
        #expect(
            run.starts.filter { $0.test == flaky }.allSatisfy {
                $0.suite == "org.acme.FlakyTest" && $0.name == "testFlaky"
            })
        #expect(run.outcomes("org.acme.FlakyTest/testStable") == [.passed])
        #expect(run.runEnd?.outcome == .passed)
    }

    @Test func surefireRerunFailuresFollowTheFirstFailureAsMoreFailedAttempts() throws {
        let run = try JUnitFixtureTests.importFixture("junit-surefire-rerunFailure.xml")
        let test = "io.olamy.AlwaysFailTest/testApp"
        // tests="4" failures="4" for one testcase: the first run and three reruns.
        #expect(run.testIDs == [test])
        #expect(run.outcomes(test) == [.failed, .failed, .failed, .failed])
        for attempt in 1...4 {
            let issues = run.issues(test, attempt: attempt)
            #expect(issues.map(\.message) == ["built to fail"])
            #expect(issues.map(\.kind) == [.assertion])
            #expect(issues.map(\.file) == ["AlwaysFailTest.java"])
            #expect(issues.map(\.line) == [23])
            #expect(run.end(test, attempt: attempt)?.message == "this will fail for real\nthis will really fail")
        }
        #expect(run.end(test, attempt: 1)?.duration == 0.001)
        #expect(run.end(test, attempt: 2)?.duration == 0)
        #expect(run.start(test, attempt: 2)?.at == Self.start + 0.001)
        #expect(run.runEnd == LedgerEvent.RunEnd(at: Self.start + 0.001, outcome: .failed))
    }

    @Test func trainerRepetitionsBecomeAttemptsAndDeviceBecomesConfiguration() throws {
        let run = try JUnitFixtureTests.importFixture("junit-trainer-Xcode16-Mixed-XCTest-SwiftTesting-WithRetries.xml")
        // trainer writes the suite properties after the testcases; run.start still has them.
        #expect(run.runStart?.configuration == "iPhone 16 Pro (18.2)")
        #expect(run.starts.count == 368)
        #expect(run.issues.count == 42)
        #expect(run.ends.filter { $0.outcome == .failed }.count == 40)
        #expect(run.ends.filter { $0.outcome == .skipped }.count == 13)
        #expect(run.ends.filter { $0.outcome == .passed }.count == 315)
        let retried = "FastlaneTrainerTests/Conditionally skipped test"
        #expect(run.outcomes(retried) == [.failed, .failed])
        #expect(run.end(retried, attempt: 1)?.duration == 0.012)
        #expect(run.end(retried, attempt: 2)?.duration == 1.0)
        #expect(run.start(retried, attempt: 2)?.at == Self.start + 0.012)
        let issue = try #require(run.issues(retried, attempt: 2).first)
        #expect(
            issue.message
                == "FastlaneTrainerExampleTests.swift:122: Caught error: TestError(message: \"Experimental features not enabled\")"
        )
        #expect(issue.file == "FastlaneTrainerExampleTests.swift")
        #expect(issue.line == 122)
        #expect(run.start("FastlaneTrainerTests/Simple string validation")?.tags == ["basic", "string", "validation"])
        #expect(
            run.end("FastlaneTrainerTests/Skipped test with condition")?.message
                == "Test 'Skipped test with condition' skipped: Feature not yet implemented")
        #expect(run.outcomes("FastlaneTrainerTests/Skipped test with condition") == [.skipped, .skipped])
        // Suites nest four deep; the testcase's classname is the suite recorded.
        #expect(
            run.start("FastlaneTrainerExampleUITestsLaunchTests/testLaunch(1, 1)")?.suite
                == "FastlaneTrainerExampleUITestsLaunchTests")
        #expect(run.outcomes("FastlaneTrainerExampleXCTests/testA_FirstTest()") == [.passed])
    }

    @Test func trainerArgumentsThatDifferOnlyInWhitespaceCollapseIntoOneTest() throws {
        let run = try JUnitFixtureTests.importFixture("junit-trainer-Xcode16-Mixed-XCTest-SwiftTesting-WithRetries.xml")
        // REXML wrote a raw tab and carriage return in `name`; XML attribute normalisation turns
        // both into spaces, so tab, CR and space arguments share one id: 3 × 2 attempts + 2.
        let collapsed = "FastlaneTrainerTests/testName🏷️And📋ParamsUsingSome😱Unusual🤪Characters( )"
        #expect(run.ends.filter { $0.test == collapsed }.map(\.attempt) == Array(1...8))
        let counts = Dictionary(grouping: run.starts, by: \.test).mapValues(\.count)
        #expect(counts.values.filter { $0 == 2 }.count == 172)
        #expect(counts.values.filter { $0 == 1 }.count == 16)
    }
}
