import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// The real reports in ../shared/fixtures/formats (see SOURCES.txt there), read in place and
/// checked field by field. Skipped, saying why, when the folder is absent.
@Suite(.enabled(if: FixtureFiles.available, Comment(rawValue: FixtureFiles.skipReason)))
struct JUnitFixtureTests {
    static let start = JUnitHarness.fallbackStart

    static func importFixture(_ name: String) throws -> ImportedRun {
        try JUnitHarness.run(file: try #require(FixtureFiles.url(name)))
    }

    @Test func everyJUnitFixtureHasItsOwnFieldByFieldTest() {
        #expect(
            FixtureFiles.names(prefix: "junit-", suffix: ".xml") == [
                "junit-fastlane-trainer.xml", "junit-pytest.xml", "junit-surefire-flaky.xml",
                "junit-surefire-rerunFailure.xml", "junit-swiftpm-xctest.xml",
                "junit-trainer-Xcode16-Mixed-XCTest-SwiftTesting-WithRetries.xml",
            ])
    }

    @Test(arguments: FixtureFiles.names(prefix: "junit-", suffix: ".xml"))
    func everyFixtureMakesAWellFormedStream(name: String) throws {
        let run = try Self.importFixture(name)
        #expect(run.types.first == "run.start")
        #expect(run.types.last == "run.end")
        #expect(run.types.filter { $0 == "run.end" }.count == 1)
        // A second run.start, when there is one, comes last before run.end.
        let runStarts = run.types.indices.filter { run.types[$0] == "run.start" }
        #expect(runStarts == [0] || runStarts == [0, run.types.count - 2])
        #expect(run.records.allSatisfy { $0.run == JUnitHarness.runID })
        #expect(run.runStart?.source == "junit")
        #expect(run.runStart?.project == "Demo")
        #expect(run.starts.map(\.test) == run.ends.map(\.test))
        #expect(run.starts.map(\.attempt) == run.ends.map(\.attempt))
        for test in run.testIDs {
            let attempts = run.ends.filter { $0.test == test }.map(\.attempt)
            #expect(attempts == Array(1...attempts.count), "\(test)")
        }
        #expect(run.ends.allSatisfy { $0.duration >= 0 })
        #expect(zip(run.starts, run.ends).allSatisfy { $1.at >= $0.at })
    }

    @Test func swiftPMXCTestReportGivesThreeTestsAndTheSkipAsAPass() throws {
        let run = try Self.importFixture("junit-swiftpm-xctest.xml")
        let suite = "AcmeLibTests.AcmeLibTests"
        #expect(run.runStart == RunMetadata(project: "Demo").runStart(at: Self.start, source: "junit"))
        #expect(run.testIDs == ["test_always_pass", "test_always_skip", "test_always_fail"].map { "\(suite)/\($0)" })
        let pass = try #require(run.start("\(suite)/test_always_pass"))
        #expect(
            pass
                == LedgerEvent.TestStart(
                    at: Self.start, test: "\(suite)/test_always_pass", suite: suite, name: "test_always_pass"))
        #expect(run.outcomes("\(suite)/test_always_pass") == [.passed])
        #expect(run.end("\(suite)/test_always_pass")?.duration == 0.036386333)
        // SwiftPM writes no <skipped> for XCTSkip: the skipped test is recorded as passed.
        #expect(run.outcomes("\(suite)/test_always_skip") == [.passed])
        #expect(run.end("\(suite)/test_always_skip")?.duration == 0.092039167)
        #expect(run.start("\(suite)/test_always_skip")?.at == Self.start + 0.036386333)
        #expect(run.outcomes("\(suite)/test_always_fail") == [.failed])
        #expect(run.end("\(suite)/test_always_fail")?.message == nil)
        #expect(
            run.issues("\(suite)/test_always_fail") == [
                LedgerEvent.Issue(
                    at: Self.start + 0.036386333 + 0.092039167, test: "\(suite)/test_always_fail",
                    message: "failed", kind: .assertion)
            ])
        #expect(JUnitHarness.close(run.runEnd?.at, Self.start + 0.22047725))
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func pytestReportGivesOutcomesIssuesAndTheSuiteTimestamp() throws {
        let run = try Self.importFixture("junit-pytest.xml")
        let begin = 1_763_225_509.548396  // 2025-11-15T11:51:49.548396-05:00
        #expect(JUnitHarness.close(run.runStart?.at, begin))
        #expect(run.runStart?.configuration == nil)
        let module = "tests.test_lib"
        let names = [
            "test_always_pass", "test_with_subtests", "test_parameterized[param1]",
            "test_parameterized[param2]", "test_always_skip", "test_always_fail",
            "test_expected_failure", "test_error", "test_with_record_property",
        ]
        #expect(run.testIDs == names.map { "\(module)/\($0)" } + ["custom_classname/test_with_record_xml_attribute"])
        #expect(
            run.ends.map(\.outcome) == [
                .passed, .passed, .passed, .passed, .skipped, .failed, .expectedFailure, .failed, .passed, .passed,
            ])
        #expect(run.ends.map(\.duration) == [0.002, 0.005, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(run.starts.allSatisfy { $0.file == nil && $0.line == nil && $0.tags == nil })
        #expect(run.starts.map(\.suite) == Array(repeating: module, count: 9) + ["custom_classname"])
        #expect(JUnitHarness.close(run.start("\(module)/test_with_subtests")?.at, begin + 0.002))
        #expect(JUnitHarness.close(run.start("\(module)/test_always_skip")?.at, begin + 0.007))
        #expect(run.end("\(module)/test_always_skip")?.message == "skipped")
        // xfail with message="" and no text: no reason to keep.
        #expect(run.end("\(module)/test_expected_failure")?.message == nil)
        let fail = run.issues("\(module)/test_always_fail")
        #expect(fail.map(\.message) == ["assert False"])
        #expect(fail.map(\.kind) == [.assertion])
        #expect(fail.map(\.file) == ["tests/test_lib.py"])
        #expect(fail.map(\.line) == [25])
        let error = run.issues("\(module)/test_error")
        #expect(error.map(\.message) == ["Exception: error"])
        #expect(error.map(\.line) == [32])
        #expect(run.issues.count == 2)
        #expect(JUnitHarness.close(run.runEnd?.at, begin + 0.007))
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func legacyTrainerReportTakesConfigurationAndZeroBasedXcodeLocations() throws {
        let run = try Self.importFixture("junit-fastlane-trainer.xml")
        #expect(run.runStart?.configuration == "Test Scheme Action")
        #expect(run.runStart?.at == Self.start)
        #expect(
            run.testIDs == [
                "TestUITests/testExample()", "TestTests/testExample()", "TestTests/testFailureJosh1()",
                "TestTests/testPerformanceExample()", "TestThisDude/testExample()",
                "TestThisDude/testFailureJosh2()", "TestThisDude/testPerformanceExample()",
            ])
        #expect(run.ends.map(\.outcome) == [.passed, .passed, .failed, .passed, .passed, .failed, .passed])
        #expect(run.end("TestUITests/testExample()")?.duration == 16.05245804786682)
        // The second suite has no timestamp: it starts where the first one ended.
        #expect(run.start("TestTests/testExample()")?.at == Self.start + 16.05245804786682)
        #expect(run.start("TestTests/testExample()")?.suite == "TestTests")
        let josh1 = try #require(run.issues("TestTests/testFailureJosh1()").first)
        #expect(josh1.message.hasPrefix("XCTAssertTrue failed (/Users/josh/Projects/fastlane/test-ios/"))
        #expect(josh1.file == "/Users/josh/Projects/fastlane/test-ios/TestTests/TestTests.swift")
        #expect(josh1.line == 37)  // StartingLineNumber=36, counted from 0
        let josh2 = try #require(run.issues("TestThisDude/testFailureJosh2()").first)
        #expect(josh2.file == "/Users/josh/Projects/fastlane/test-ios/TestThisDude/TestThisDude.swift")
        #expect(josh2.line == 36)
        #expect(run.issues.count == 2)
        #expect(run.runEnd?.outcome == .failed)
    }
}
