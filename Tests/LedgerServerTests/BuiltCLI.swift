import Foundation
import LedgerTestSupport

/// The built `testledger` binary, run against a server's store: what the read side must match.
enum BuiltCLI {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `testledger` binary built beside the test bundle (`swift build --build-tests` builds it),
    /// found as Tests/TestLedgerCLITests/CLI.swift finds it.
    static let binary: URL = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appending(path: "testledger")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return packageRoot.appending(path: ".build/debug/testledger")
    }()

    /// Runs `testledger ARGUMENTS` on the store at `database`, in an empty folder (no
    /// `.testledger.yml`), with a clean environment.
    static func run(_ arguments: [String], database: String) async throws -> ChildProcess.Output {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var variables = ChildProcess.cleanEnvironment()
        variables["TESTLEDGER_DB"] = database
        return try await ChildProcess.run(binary, arguments, environment: variables, in: directory.url)
    }
}
