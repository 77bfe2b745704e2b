import Foundation
import LedgerTestSupport
import Testing

/// Runs the built `testledger` binary and captures what it prints.
struct CLI: Sendable {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `testledger` binary built beside the test bundle.
    static let binary: URL = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appending(path: "testledger")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return packageRoot.appending(path: ".build/debug/testledger")
    }()

    /// Where fixture packages build: one shared folder per package, so reruns reuse it.
    static func scratchPath(for package: String) -> String {
        packageRoot.appending(path: ".build-fixtures/\(package)").path
    }

    let directory: TemporaryDirectory
    var database: String { directory.path("ledger.sqlite") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Runs `testledger ARGUMENTS` in the temporary directory with `--db` unless given.
    @discardableResult
    func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], executable: URL = CLI.binary
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        var env = Self.childEnvironment()
        env["TESTLEDGER_DB"] = database
        env.merge(environment) { _, new in new }
        process.environment = env
        return try Self.collect(process, stdin: stdin)
    }

    /// Runs another program (`swift`, `git`, or a path) found on the path, in `directory`, with
    /// ``childEnvironment()`` and `environment` over it.
    static func runTool(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = childEnvironment().merging(environment) { _, new in new }
        return try collect(process)
    }

    /// Starts `process`, feeds it `stdin`, and collects its status and both outputs.
    private static func collect(_ process: Process, stdin: String? = nil) throws -> Output {
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        let writer = Thread {
            if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = AsyncData(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
            stderr: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// This process's environment without TestLedger's variables or a CI's, so that a child
    /// sees only what a test gives it.
    static func childEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TESTLEDGER_") && !ciVariables.contains($0.key) }
    }

    /// Makes an access token with `testledger token create`; returns it.
    func token(_ project: String = "Shop", _ scope: String = "write") throws -> String {
        let created = try run(["token", "create", "--project", project, "--scope", scope])
        #expect(created.status == 0, "\(created.stderr)")
        return created.stdout.trimmingCharacters(in: .newlines)
    }

    /// Decodes the JSON a command printed.
    func json(_ arguments: [String]) throws -> Any {
        let output = try run(arguments + ["--format", "json"])
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }

    static let ciVariables: Set<String> = [
        "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "JENKINS_URL", "BITRISE_IO", "CI_XCODEBUILD_ACTION",
        "CI_BUILD_ID",
    ]
}

/// Reads a pipe to its end on another thread, so two pipes can drain at once.
final class AsyncData: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
