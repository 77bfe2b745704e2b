import Foundation
import LedgerCore

/// An `xcodebuild test` (or `test-without-building`) command line, extended so that xcodebuild
/// writes a result bundle TestLedger reads and leaves quarantined tests out.
struct XcodebuildInvocation {
    let original: [String]
    /// The bundle xcodebuild writes: the one given with `-resultBundlePath`, else one in the
    /// output folder.
    let resultBundle: URL
    private let addsBundle: Bool
    /// Xcode's own retry options, `-retry-tests-on-failure -test-iterations N+1`, unless the
    /// command sets how its tests repeat.
    private let retryOptions: [String]

    /// `nil` when the command is not `xcodebuild` running tests.
    /// - Parameter retries: how many more times xcodebuild runs a test that failed.
    init?(_ command: [String], outputFolder: URL, retries: Int = 0) {
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

    /// The command with `-resultBundlePath` added unless given, the retry options, and a
    /// `-skip-testing:` per test.
    func arguments(skipping tests: [String]) -> [String] {
        original + (addsBundle ? ["-resultBundlePath", resultBundle.path] : []) + retryOptions
            + SkipArguments.arguments(for: .xcodebuild, skipping: tests)
    }

    /// `variables` as xcodebuild passes them on to the test runner: it strips `TEST_RUNNER_` from
    /// the names that have it, so the observer library in the tests sees them under their own.
    static func testRunnerEnvironment(_ variables: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: variables.map { ("TEST_RUNNER_" + $0.key, $0.value) })
    }
}
