import Foundation
import LedgerTestSupport
import Testing

/// Runs the built `testledger` binary and captures what it prints.
struct CLI: Sendable {
    typealias Output = ChildProcess.Output

    /// The package's root folder.
    static let packageRoot = BuiltTestLedger.packageRoot
    /// The `testledger` binary built beside the test bundle.
    static let binary = BuiltTestLedger.binary

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
    ) async throws -> Output {
        var variables = ChildProcess.cleanEnvironment()
        variables["TESTLEDGER_DB"] = database
        variables.merge(environment) { _, new in new }
        return try await ChildProcess.run(
            executable, arguments, environment: variables, in: directory.url, stdin: stdin.map { Data($0.utf8) })
    }

    /// Makes an access token with `testledger token create`; returns it.
    func token(_ project: String = "Shop", _ scope: String = "write") async throws -> String {
        let created = try await run(["token", "create", "--project", project, "--scope", scope])
        #expect(created.status == 0, "\(created.stderr)")
        return created.stdout.trimmingCharacters(in: .newlines)
    }

    /// Decodes the JSON a command printed.
    func json(_ arguments: [String]) async throws -> Any {
        let output = try await run(arguments + ["--format", "json"])
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }
}
