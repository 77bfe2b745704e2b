import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// The real `xcresulttool get test-results tests` outputs of Xcode 16.2 and Xcode 26 (fastlane's
/// trainer fixtures: one mixed XCTest and Swift Testing project, run with retries), read in
/// place from ../shared/fixtures/formats and checked field by field.
@Suite(.enabled(if: FixtureFiles.available, Comment(rawValue: FixtureFiles.skipReason)))
struct XCResultFixtureTests {
    static let start = ImportedRun.start
    static let swiftTesting = "FastlaneTrainerExampleTests.FastlaneTrainerTests"

    static func importFixture(_ name: String) throws -> ImportedRun {
        let url = try #require(FixtureFiles.url(name), "\(name) is missing from the samples folder")
        return try ImportedRun.importing(Data(contentsOf: url), with: XCResultImporter(), sourceName: name)
    }

    @Test func xcode16RetriesBecomeAttemptsWithTheirOwnDurationsAndIssues() throws {
        let run = try Self.importFixture("xcresult-tests-Xcode16-Mixed-XCTest-SwiftTesting.json")
        #expect(run.runStart?.source == "xcresult")
        #expect(run.runStart?.configuration == "iPhone 16 Pro (18.2)")
        #expect(run.runStart?.at == Self.start)
        #expect(run.testIDs.count == 64)
        #expect(run.starts.count == 112)
        #expect(run.ends.filter { $0.outcome == .passed }.count == 73)
        #expect(run.ends.filter { $0.outcome == .failed }.count == 26)
        #expect(run.ends.filter { $0.outcome == .skipped }.count == 13)
        #expect(run.issues.count == 28)

        let retried = "\(Self.swiftTesting)/testConditionalSkip()"
        #expect(run.outcomes(retried) == [.failed, .failed])
        #expect(run.end(retried, attempt: 1)?.duration == 0.017)
        #expect(run.end(retried, attempt: 2)?.duration == 0.019)
        #expect(run.start(retried, attempt: 2)?.at == run.end(retried, attempt: 1)?.at)
        let start = try #require(run.start(retried, attempt: 2))
        #expect(start.suite == Self.swiftTesting)
        #expect(start.name == "Conditionally skipped test")
        let issue = try #require(run.issues(retried, attempt: 2).first)
        #expect(
            issue.message
                == "FastlaneTrainerExampleTests.swift:116: Caught error: TestError(message: \"Experimental features not enabled\")"
        )
        #expect(issue.file == "FastlaneTrainerExampleTests.swift")
        #expect(issue.line == 116)
        #expect(issue.kind == .error)

        // Nested Swift Testing suites: the identifier's path, `/`-separated as Swift Testing ids are.
        let password = "\(Self.swiftTesting)/UserTests/RegistrationTests/PasswordTests/testPasswordLength()"
        #expect(run.start(password)?.suite == "\(Self.swiftTesting)/UserTests/RegistrationTests/PasswordTests")
        #expect(run.issues(password, attempt: 1).map(\.kind) == [.assertion, .assertion])
        #expect(
            run.issues(password, attempt: 1).first?.message
                == "FastlaneTrainerExampleTests.swift:156: Expectation failed: (password.count → 11) < 8\nPassword 'justbarely8' is too short"
        )
        #expect(
            run.end(
                "\(Self.swiftTesting)/UserTests/RegistrationTests/PasswordTests/testPasswordComplexity()", attempt: 2)?
                .duration == 0.0095)

        #expect(run.start("\(Self.swiftTesting)/testBasicNumber()")?.tags == ["basic", "number", "validation"])
        #expect(run.start("\(Self.swiftTesting)/testBasicNumber()")?.layer == nil)
        let premium = "\(Self.swiftTesting)/SkipTests/FeatureFlagTests/testPremiumFeature()"
        #expect(run.outcomes(premium) == [.skipped, .skipped])
        #expect(
            run.end(premium, attempt: 2)?.message
                == "Test 'Premium feature test' skipped: Premium features not available")
        #expect(run.issues(premium).isEmpty)
        #expect(
            run.end("FastlaneTrainerExampleXCTests.FastlaneTrainerExampleXCTests/testConditionalExecution()")?.message
                == "Test skipped - Skipping slow tests")

        // One test per argument, named as fastlane trainer names them; each argument's repetitions are its attempts.
        let failing = "\(Self.swiftTesting)/testMultipleStrings(\"FastlaneTrainer\")"
        #expect(run.outcomes(failing) == [.failed, .failed])
        #expect(run.start(failing)?.name == "Validate multiple strings (\"FastlaneTrainer\")")
        #expect(run.outcomes("\(Self.swiftTesting)/testMultipleStrings(\"Hello\")") == [.passed, .passed])
        #expect(
            run.outcomes(
                "\(Self.swiftTesting)/UserTests/ProfileTests/SettingsTests/testPrivacySettings((setting: \"email\", isPrivate: true))"
            ) == [.passed, .passed])
        // XCTest's launch configurations have no duration of their own: each gets a share of the case's 5 s.
        let launch = "FastlaneTrainerExampleUITests.FastlaneTrainerExampleUITestsLaunchTests/testLaunch (1, 1)"
        #expect(run.start(launch)?.name == "testLaunch(1, 1)")
        #expect(run.end(launch)?.duration == 1.25)
        #expect(run.start(launch)?.layer == .ui)
        let ui = "FastlaneTrainerExampleUITests.FastlaneTrainerExampleUITests/testAccessibilityAndScreenshots()"
        #expect(run.ends.filter { $0.test == ui }.map(\.duration) == [6, 4])
        #expect(run.start(ui)?.layer == .ui)
        #expect(
            run.start("FastlaneTrainerExampleXCTests.FastlaneTrainerExampleXCTests/testA_FirstTest()")?.layer == nil)

        // No test of this run passed on retry after failing, so none is flaky in it.
        #expect(!run.testIDs.contains { run.outcomes($0).contains(.failed) && run.outcomes($0).last == .passed })
        #expect(run.runEnd?.outcome == .failed)
        #expect(ImportedRun.close(run.runEnd?.at, Self.start + 94.328799, within: 1e-6))
        #expect(run.warnings.isEmpty)
        #expect(run.attemptsAreWellFormed && run.timesAreConsistent)
    }

    @Test func xcode26DurationsInSecondsAndArgumentsThatLookAlikeShareAnID() throws {
        let run = try Self.importFixture("xcresult-tests-Xcode26-Mixed-XCTest-SwiftTesting.json")
        #expect(run.runStart?.configuration == "iPhone 17 Pro Max (26.1)")
        #expect(run.starts.count == 368)
        #expect(run.testIDs.count == 191)
        #expect(run.ends.filter { $0.outcome == .passed }.count == 315)
        #expect(run.ends.filter { $0.outcome == .failed }.count == 40)
        #expect(run.ends.filter { $0.outcome == .skipped }.count == 13)
        #expect(run.issues.count == 42)
        let password = "\(Self.swiftTesting)/UserTests/RegistrationTests/PasswordTests/testPasswordLength()"
        #expect(run.ends.filter { $0.test == password }.map(\.duration) == [0.003999948501586914, 1])
        // Xcode 26 failure messages have no result of their own; the repetition's counts.
        #expect(run.issues(password, attempt: 2).map(\.line) == [162, 162])
        let async = "\(Self.swiftTesting)/testAsyncOperation()"
        #expect(run.ends.filter { $0.test == async }.map(\.duration) == [2, 3])
        #expect(run.start(async)?.tags == ["async"])
        let launch =
            "FastlaneTrainerExampleUITests.FastlaneTrainerExampleUITestsLaunchTests/testLaunch (Dark Appearance, Portrait)"
        #expect(run.end(launch)?.duration == 8.790099024772644)
        // Two arguments both shown as " ": one id, their repetitions numbered on (as the trainer JUnit import does).
        let alike = "\(Self.swiftTesting)/testName🏷️And📋ParamsUsingSome😱Unusual🤪Characters( )"
        #expect(run.ends.filter { $0.test == alike }.map(\.attempt) == [1, 2, 3, 4])
        #expect(run.runEnd?.outcome == .failed)
        #expect(ImportedRun.close(run.runEnd?.at, Self.start + 207.13414001464844, within: 1e-6))
        #expect(run.warnings.isEmpty)
        #expect(run.attemptsAreWellFormed && run.timesAreConsistent)
    }
}
