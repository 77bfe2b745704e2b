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

    /// `nil` when the command is not `xcodebuild` running tests.
    /// - Parameters:
    ///   - command: the command line.
    ///   - outputFolder: where the result bundle goes when the command names none.
    package init?(_ command: [String], outputFolder: URL) {
        guard let first = command.first, URL(fileURLWithPath: first).lastPathComponent == "xcodebuild",
            command.contains(where: { $0 == "test" || $0 == "test-without-building" })
        else { return nil }
        original = command
        if let option = command.firstIndex(of: "-resultBundlePath"), option + 1 < command.count {
            resultBundle = URL(fileURLWithPath: command[option + 1])
            addsBundle = false
        } else {
            // xcodebuild refuses a bundle path that exists: this one is new in a new folder.
            resultBundle = outputFolder.appending(path: "Tests.xcresult")
            addsBundle = true
        }
    }

    /// The command with `-resultBundlePath` added unless given, a `-skip-testing:` per test, and
    /// `selecting` (a shard's `-only-testing:`s).
    package func arguments(skipping tests: [String], selecting: [String] = []) -> [String] {
        original + (addsBundle ? ["-resultBundlePath", resultBundle.path] : [])
            + SkipArguments.arguments(for: .xcodebuild, skipping: tests) + selecting
    }

    /// The command that runs `tests` again after it: `test-without-building` (the build is
    /// there), `-only-testing:` each, its own bundle in `outputFolder`; the command's own choice of
    /// tests and bundle left out.
    package func retrying(_ tests: [String], outputFolder: URL) -> (invocation: Self, arguments: [String]) {
        var command: [String] = []
        var words = original.makeIterator()
        while let word = words.next() {
            if word == "-resultBundlePath" || word == "-only-testing" || word == "-skip-testing" {
                _ = words.next()
            } else if !word.hasPrefix("-only-testing:") && !word.hasPrefix("-skip-testing:") {
                command.append(word == "test" ? "test-without-building" : word)
            }
        }
        guard let again = Self(command, outputFolder: outputFolder) else {
            preconditionFailure("xcodebuild test-without-building is an xcodebuild test command: \(command)")
        }
        let selected = tests.map { "-only-testing:" + SkipArguments.xcodebuildName($0) }
        return (again, again.arguments(skipping: [], selecting: selected))
    }

    /// Whether the command already chooses its tests with `-only-testing`.
    /// Why the scheme's test targets are not known to be SwiftPM targets, when they are not: a
    /// `-project` or `-workspace`, an Xcode project or workspace in the working directory, or no
    /// `Package.swift` there; `nil` for a package's own scheme, whose test targets are the package's.
    package var notAPackageScheme: String? {
        if let option = original.first(where: { $0 == "-project" || $0 == "-workspace" }) {
            return "the scheme is an Xcode \(option.dropFirst())'s, whose test targets are not SwiftPM targets"
        }
        let folder = FileManager.default.currentDirectoryPath
        // Without -project or -workspace, xcodebuild takes a project of the folder over its package.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        if let project = names.sorted().first(where: { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) {
            return "\(project) is here, and its schemes' test targets are not SwiftPM targets"
        }
        guard names.contains("Package.swift") else {
            return "no Package.swift here: the scheme's test targets are not SwiftPM targets"
        }
        return nil
    }

    /// The build configuration: `-configuration`'s, else `Debug`.
    package var buildConfiguration: String {
        guard let index = original.firstIndex(of: "-configuration"), index + 1 < original.count else { return "Debug" }
        return original[index + 1]
    }

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
