import Foundation
import LedgerCore

extension TestCommand {
    /// What of the command the target hashes cover: its words without those that only place its
    /// files (the package, build and output folders), so that two machines running the same tests
    /// the same way get the same hashes, and a sanitizer, a trait, a destination or a build
    /// configuration makes other ones.
    package var selectionSignature: [String] {
        switch self {
        case .swiftTest(let invocation):
            ["swift"]
                + Self.dropping(
                    Array(invocation.original.dropFirst()),
                    options: [
                        "--package-path", "--scratch-path", "--build-path", "--cache-path", "--config-path",
                        "--security-path", "--xunit-output",
                    ], flags: ["--skip-build"])
        case .xcodebuild(let invocation):
            ["xcodebuild"]
                + Self.dropping(
                    Array(invocation.original.dropFirst()),
                    options: [
                        "-resultBundlePath", "-derivedDataPath", "-test-enumeration-output-path", "-resultStreamPath",
                    ],
                    flags: ["-quiet"])
        case .module(let command): command
        }
    }

    /// What the target hashes cover of a run besides files: its `--configuration` and the command's
    /// ``selectionSignature``.
    package func hashedConfiguration(_ configuration: String) -> String {
        ([configuration] + selectionSignature).joined(separator: "\u{0}")
    }

    /// The package whose graph selection reads: `swift test`'s `--package-path`, else the working
    /// directory.
    package var packagePath: String {
        swiftTest?.packagePath ?? FileManager.default.currentDirectoryPath
    }

    /// The package folder `command` tests: its `--package-path`, else the working directory.
    package static func packagePath(of command: [String]) -> String {
        TestCommand(command, outputFolder: FileManager.default.temporaryDirectory).packagePath
    }

    private static func dropping(_ words: [String], options: Set<String>, flags: Set<String>) -> [String] {
        var kept: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if options.contains(word) {
                index += 2
                continue
            }
            let name = String(word.prefix { $0 != "=" })
            if !(word.contains("=") && options.contains(name)) && !flags.contains(word) { kept.append(word) }
            index += 1
        }
        return kept
    }
}
