import Foundation
import LedgerCore
import LedgerStore

/// `testledger verify` for `xcodebuild`: one process runs the named tests (`-only-testing:` each)
/// `-test-iterations N -run-tests-until-failure`, and its result bundle gives each iteration as an
/// attempt of the verification run.
package struct XcodebuildVerification {
    /// The command as given, `xcodebuild test` or `test-without-building` with its options.
    package var invocation: XcodebuildInvocation
    /// The tests verified, by stable id.
    package var tests: [String]
    /// Tests run with them (not judged): the neighbours their failures followed.
    package var runBefore: [String]
    /// The verification run.
    package var run: String
    package var metadata: RunMetadata

    package init(
        invocation: XcodebuildInvocation, tests: [String], runBefore: [String], run: String, metadata: RunMetadata
    ) {
        (self.invocation, self.tests, self.runBefore, self.run, self.metadata) = (
            invocation, tests, runBefore, run, metadata
        )
    }

    /// The options that repeat a test, which the command may not set itself: verify sets them.
    package static let repeatOptions = [
        "-only-testing", "-test-iterations", "-run-tests-until-failure", "-retry-tests-on-failure",
    ]

    /// xcodebuild's arguments for `runs` iterations at most.
    package func arguments(runs: Int) -> [String] {
        let selected = (runBefore + tests).map { "-only-testing:" + SkipArguments.xcodebuildName($0) }
        return invocation.arguments(
            skipping: [], selecting: selected + ["-test-iterations", String(runs), "-run-tests-until-failure"])
    }

    /// Runs the tests up to `runs` times in one xcodebuild, then stores its result bundle and
    /// what the library in the tests journaled.
    /// - Parameters:
    ///   - runs: the most iterations.
    ///   - environment: xcodebuild's environment, with what the library in the tests reads.
    ///   - databasePath: the ledger file the library journals beside.
    ///   - database: the ledger the verification run is stored in.
    /// - Returns: each test's result in each iteration, up to its first failure.
    /// - Throws: a test that never ran (its id matches no test), or what storing throws.
    package func verify(runs: Int, environment: [String: String], databasePath: String, in database: LedgerDatabase)
        throws -> VerificationOutcome
    {
        let line = "testledger: verify: \(runs) iterations in one xcodebuild: \(tests.joined(separator: ", "))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        let status = try ChildProcess(arguments: arguments(runs: runs), environment: environment).run { _ in }
        database.recoverPendingJournals(databasePath: databasePath)
        var problems: [String] = []
        let bundle = invocation.resultBundle.path
        if XCResultBundle.isBundle(bundle) {
            _ = try Ingestion.ingest(
                XCResultBundle(path: bundle), metadata: metadata, runID: run, interrupted: status >= 128,
                into: database)
        } else {
            problems.append("xcodebuild wrote no result bundle at \(bundle) (it exited with \(status))")
        }
        return try VerificationOutcome(oneProcessOf: tests, run: run, status: status, problems: problems, in: database)
    }
}
