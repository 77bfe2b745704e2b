import Foundation
import LedgerCore
import LedgerStore

/// `testledger verify` for `xcodebuild`: one process runs the named tests (`-only-testing:` each)
/// `-test-iterations N -run-tests-until-failure`, and its result bundle gives each iteration as an
/// attempt of the verification run.
package struct XcodebuildVerification: VerifyingRunner {
    /// The command as given, `xcodebuild test` or `test-without-building` with its options.
    package var invocation: XcodebuildInvocation
    /// The tests verified, by stable id.
    package var tests: [String]
    /// Tests run with them (not judged): the neighbours their failures followed.
    package var runBefore: [String]
    /// The verification run's process.
    package var processes: XcodebuildProcesses

    package init(
        invocation: XcodebuildInvocation, tests: [String], runBefore: [String], processes: XcodebuildProcesses
    ) {
        (self.invocation, self.tests, self.runBefore, self.processes) = (invocation, tests, runBefore, processes)
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
    /// what the library in the tests journaled. The iterations run in one process: no deadline
    /// stops them.
    package func verify(runs: Int, deadline: Double?, in database: LedgerDatabase) throws -> VerificationOutcome {
        let line = "testledger: verify: \(runs) iterations in one xcodebuild: \(tests.joined(separator: ", "))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        let (status, problems) = try processes.run(
            arguments(runs: runs), bundle: invocation.resultBundle.path, in: database)
        return try VerificationOutcome(
            oneProcessOf: tests, run: processes.run, status: status, problems: problems, in: database)
    }
}
