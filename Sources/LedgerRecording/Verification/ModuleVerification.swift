import Foundation
import LedgerCore
import LedgerStore

/// `testledger verify` for a runner's module (Bacon's): the command runs once, and the module, told
/// by `TESTLEDGER_VERIFY=N` and `TESTLEDGER_VERIFY_TESTS`, runs only the named tests, each up to N
/// times until it fails, in its own process; each run is an attempt of the verification run.
package struct ModuleVerification: VerifyingRunner {
    /// The command as given, such as `bacon -r testledger -o TestLedger spec/cart_spec.rb`.
    package var command: [String]
    /// The tests verified, by stable id.
    package var tests: [String]
    /// Tests run with them (not judged): the neighbours their failures followed.
    package var runBefore: [String]
    /// The verification run.
    package var run: String
    /// The command's environment, with what the module reads of the run.
    package var environment: [String: String]
    /// Where the named tests' file goes.
    package var folder: URL
    /// The ledger file the module journals beside.
    package var databasePath: String

    package init(
        command: [String], tests: [String], runBefore: [String], run: String, environment: [String: String],
        folder: URL, databasePath: String
    ) {
        (self.command, self.tests, self.runBefore, self.run) = (command, tests, runBefore, run)
        (self.environment, self.folder, self.databasePath) = (environment, folder, databasePath)
    }

    /// The variables the module reads: the runs, the tests (in a file in `folder`), and an empty
    /// quarantine, so that a quarantined test runs to be verified.
    package func variables(runs: Int, folder: URL) throws -> [String: String] {
        let named = folder.appending(path: "verify-tests.json")
        try JSONEncoder().encode(runBefore + tests).write(to: named, options: .atomic)
        let quarantine = folder.appending(path: "quarantine.json")
        try Data("[]".utf8).write(to: quarantine, options: .atomic)
        return [
            LedgerEnvironment.Module.verify: String(runs), LedgerEnvironment.Module.verifyTests: named.path,
            LedgerEnvironment.Module.quarantine: quarantine.path,
        ]
    }

    /// Runs the command once, then stores what the module journaled. The runs are the module's,
    /// in one process: no deadline stops them.
    package func verify(runs: Int, deadline: Double?, in database: LedgerDatabase) throws -> VerificationOutcome {
        let line = "testledger: verify: up to \(runs) runs each in one process: \(tests.joined(separator: ", "))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        let variables = environment.merging(try self.variables(runs: runs, folder: folder)) { _, verify in verify }
        let status = try ChildProcess(arguments: command, environment: variables).run { _ in }
        database.recoverPendingJournals(databasePath: databasePath)
        return try VerificationOutcome(
            oneProcessOf: tests, run: run, status: status,
            fix: ", and that the command loads the testledger module (bacon -r testledger -o TestLedger …)",
            in: database)
    }
}
