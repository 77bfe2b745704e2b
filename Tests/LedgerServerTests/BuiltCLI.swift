import Foundation
import LedgerTestSupport

/// The built `testledger` binary, run against a server's store: what the read side must match.
enum BuiltCLI {
    /// Runs `testledger ARGUMENTS` on the store at `database`, in an empty folder (no
    /// `.testledger.yml`), with a clean environment.
    static func run(_ arguments: [String], database: String) async throws -> ChildProcess.Output {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var variables = ChildProcess.cleanEnvironment()
        variables["TESTLEDGER_DB"] = database
        return try await ChildProcess.run(BuiltTestLedger.binary, arguments, environment: variables, in: directory.url)
    }
}
