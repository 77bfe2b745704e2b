import Foundation
import LedgerCore

/// An `xcodebuild test` (or `test-without-building`) command line, extended so that xcodebuild
/// writes a result bundle TestLedger reads and leaves quarantined tests out.
package struct XcodebuildInvocation {
    package let original: [String]
    /// The bundle xcodebuild writes: the one given with `-resultBundlePath`, else one in the
    /// output folder.
    package let resultBundle: URL
    private let addsBundle: Bool
    /// Xcode's own retry options, `-retry-tests-on-failure -test-iterations N+1`, unless the
    /// command sets how its tests repeat.
    private let retryOptions: [String]

    /// `nil` when the command is not `xcodebuild` running tests.
    /// - Parameters:
    ///   - command: the command line.
    ///   - outputFolder: where the result bundle goes when the command names none.
    ///   - retries: how many more times xcodebuild runs a test that failed.
    package init?(_ command: [String], outputFolder: URL, retries: Int = 0) {
        guard let first = command.first, URL(fileURLWithPath: first).lastPathComponent == "xcodebuild",
            command.contains(where: { $0 == "test" || $0 == "test-without-building" })
        else { return nil }
        original = command
        let repeats = ["-retry-tests-on-failure", "-test-iterations", "-run-tests-until-failure"]
        retryOptions =
            retries > 0 && !command.contains(where: repeats.contains)
            ? ["-retry-tests-on-failure", "-test-iterations", String(retries + 1)] : []
        if let option = command.firstIndex(of: "-resultBundlePath"), option + 1 < command.count {
            resultBundle = URL(fileURLWithPath: command[option + 1])
            addsBundle = false
        } else {
            // xcodebuild refuses a bundle path that exists: this one is new in a new folder.
            resultBundle = outputFolder.appending(path: "Tests.xcresult")
            addsBundle = true
        }
    }

    /// The command with `-resultBundlePath` added unless given, the retry options, a
    /// `-skip-testing:` per test, and `selecting` (a shard's `-only-testing:`s).
    package func arguments(skipping tests: [String], selecting: [String] = []) -> [String] {
        original + (addsBundle ? ["-resultBundlePath", resultBundle.path] : []) + retryOptions
            + SkipArguments.arguments(for: .xcodebuild, skipping: tests) + selecting
    }

    /// Whether the command already chooses its tests with `-only-testing`.
    package var selectsTests: Bool {
        original.contains { $0.hasPrefix("-only-testing") }
    }

    /// Every test the command would run, as xcodebuild lists them (`-enumerate-tests`, which
    /// builds first when needed), as the ledger names them.
    /// - Parameter folder: where xcodebuild writes the list.
    /// - Returns: the tests' ledger names.
    /// - Throws: ``LedgerInputError`` when xcodebuild could not list them.
    package func allTests(writingInto folder: URL) throws -> [String] {
        let output = folder.appending(path: "enumerated-tests.json")
        var arguments = original
        // The run's own bundle must not exist yet when the tests run.
        if let option = arguments.firstIndex(of: "-resultBundlePath"), option + 1 < arguments.count {
            arguments.removeSubrange(option...option + 1)
        }
        arguments += [
            "-enumerate-tests", "-test-enumeration-style", "flat", "-test-enumeration-format", "json",
            "-test-enumeration-output-path", output.path,
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        // What xcodebuild prints while listing is the build's, not the tests': it goes to stderr.
        process.standardOutput = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: output.path) else {
            throw LedgerInputError(
                source: "xcodebuild -enumerate-tests",
                problem: "listing the tests failed (exit \(process.terminationStatus))",
                fix: "run the command with -enumerate-tests to see why")
        }
        return try XcodebuildTestList.stableIDs(enumeration: data, source: output.lastPathComponent)
    }

    /// `variables` as xcodebuild passes them on to the test runner: it strips `TEST_RUNNER_` from
    /// the names that have it, so the observer library in the tests sees them under their own.
    package static func testRunnerEnvironment(_ variables: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: variables.map { ("TEST_RUNNER_" + $0.key, $0.value) })
    }
}
