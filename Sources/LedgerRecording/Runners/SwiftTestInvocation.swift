import Foundation
import LedgerCore

/// A `swift test` command line, extended so SwiftPM writes what TestLedger reads: Swift Testing's
/// event stream and the xUnit files (XCTest's is written only with `--parallel`).
package struct SwiftTestInvocation {
    package let original: [String]
    package let outputFolder: URL

    /// `nil` when the command is not `swift test`.
    package init?(_ command: [String], outputFolder: URL) {
        guard command.count >= 2, URL(fileURLWithPath: command[0]).lastPathComponent == "swift",
            command[1] == "test"
        else { return nil }
        self.init(original: command, outputFolder: outputFolder)
    }

    private init(original: [String], outputFolder: URL) {
        self.original = original
        self.outputFolder = outputFolder
    }

    /// The command that runs `tests` (stable ids) again without building: the same package and
    /// build, one anchored `--filter` per test, one test at a time so that a crash ends only the
    /// test it happens in, its outputs written into `outputFolder`.
    package func retrying(_ tests: [String], outputFolder: URL) -> SwiftTestInvocation {
        SwiftTestInvocation(
            original: [original[0], "test", "--skip-build", "--no-parallel"] + locationOptions
                + SkipArguments.swiftTestArguments(selecting: tests),
            outputFolder: outputFolder)
    }

    /// The command that runs `tests` again without building, as the runner schedules them (side by
    /// side, for Swift Testing) unless `serial`.
    package func rerunning(_ tests: [String], outputFolder: URL, serial: Bool) -> SwiftTestInvocation {
        SwiftTestInvocation(
            original: [original[0], "test", "--skip-build"] + (serial ? ["--no-parallel"] : []) + locationOptions
                + SkipArguments.swiftTestArguments(selecting: tests),
            outputFolder: outputFolder)
    }

    package var eventStream: URL { outputFolder.appending(path: "swift-testing-events.jsonl") }
    package var xunit: URL { outputFolder.appending(path: "xunit.xml") }
    package var swiftTestingXUnit: URL { outputFolder.appending(path: "xunit-swift-testing.xml") }

    /// The command with the output flags added, unless the user already gave them.
    package var arguments: [String] { arguments(adding: []) }

    /// The command with the output flags added, unless the user already gave them, and `extra`.
    package func arguments(adding extra: [String]) -> [String] {
        var arguments = original
        let terminator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        var added: [String] = []
        if !original.contains(where: {
            $0.hasPrefix("--event-stream-output-path") || $0.hasPrefix("--experimental-event-stream-output")
        }) {
            added += ["--event-stream-output-path", eventStream.path]
        }
        if !original.contains(where: { $0.hasPrefix("--event-stream-version") }) {
            // Version 0 carries each test's tags (6.3's default does not), and so its layer.
            added += ["--event-stream-version", "0"]
        }
        if !original.contains(where: { $0.hasPrefix("--xunit-output") }) {
            added += ["--xunit-output", xunit.path]
        }
        arguments.insert(contentsOf: added + extra, at: terminator)
        return arguments
    }

    /// The options that locate the package and its build, to list its tests afterwards.
    package var locationOptions: [String] {
        var options: [String] = []
        var index = 2
        let withValue: Set<String> = [
            "--package-path", "--scratch-path", "--build-path", "-c", "--configuration", "--triple",
        ]
        while index < original.count, original[index] != "--" {
            let argument = original[index]
            if withValue.contains(argument), index + 1 < original.count {
                options += [argument, original[index + 1]]
                index += 1
            } else if withValue.contains(where: { argument.hasPrefix($0 + "=") }) {
                options.append(argument)
            }
            index += 1
        }
        return options
    }

    /// The package's folder: `--package-path`'s, else the working directory.
    package var packagePath: String {
        option("--package-path") ?? FileManager.default.currentDirectoryPath
    }

    /// The build configuration: `-c`'s or `--configuration`'s, else `debug`.
    package var buildConfiguration: String {
        option("-c") ?? option("--configuration") ?? "debug"
    }

    /// The value of one of ``locationOptions``, given as `NAME VALUE` or `NAME=VALUE`.
    private func option(_ name: String) -> String? {
        let options = locationOptions
        for (index, option) in options.enumerated() {
            if option == name, index + 1 < options.count { return options[index + 1] }
            if option.hasPrefix(name + "=") { return String(option.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// The files SwiftPM wrote for TestLedger: the event stream (else Swift Testing's xUnit file),
    /// then XCTest's xUnit file.
    package func writtenOutputs() -> [String] {
        let manager = FileManager.default
        var files: [String] = []
        let events = manager.fileExists(atPath: eventStream.path)
        if events, (try? manager.attributesOfItem(atPath: eventStream.path)[.size] as? Int) ?? 0 > 0 {
            files.append(eventStream.path)
        } else if manager.fileExists(atPath: swiftTestingXUnit.path) {
            files.append(swiftTestingXUnit.path)
        }
        if manager.fileExists(atPath: xunit.path) { files.append(xunit.path) }
        return files
    }

    /// Every test of the package, as `swift test list` names them (`Module.Class/test`,
    /// `Module.Suite/test()`), building first when needed; `nil` when listing failed.
    package func allTests() -> [String]? {
        listing(building: true)?.compactMap(SwiftTestList.stableID(listed:))
    }

    /// `Class.test` → `Module.Class/test` from `swift test list`, to name console-only results.
    package func listedTests() -> [String: String] {
        Self.consoleNames(of: listing(building: false) ?? [])
    }

    /// The lines `swift test list` prints; `nil` when it could not start, or failed while
    /// `building`. Without `building`, what is not built yet is not listed.
    private func listing(building: Bool) -> [Substring]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [original[0], "test", "list"] + (building ? [] : ["--skip-build"]) + locationOptions
        let output = Pipe()
        process.standardOutput = output
        if !building { process.standardError = FileHandle.nullDevice }
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // A listing without building keeps what it printed, as far as it got.
        guard process.terminationStatus == 0 || !building else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    /// `Class.test` and `Module.Class.test`, as XCTest's console names a test, → its stable id
    /// `Module.Class/test`, for each of `tests`; ids of no module are left out.
    package static func consoleNames(of tests: [some StringProtocol]) -> [String: String] {
        var names: [String: String] = [:]
        for test in tests {
            guard let slash = test.firstIndex(of: "/"), let dot = test[..<slash].firstIndex(of: ".") else { continue }
            let className = test[test.index(after: dot)..<slash]
            names[className + "." + test[test.index(after: slash)...]] = String(test)
            names[test[..<slash] + "." + test[test.index(after: slash)...]] = String(test)
        }
        return names
    }
}
