import Foundation
import LedgerCore
import LedgerStore

/// `record --retries N` for `xcodebuild`: the failed tests alone run again, `test-without-building
/// -only-testing:` each, each retry's result bundle stored as the next attempts of the same run.
/// Xcode's own `-retry-tests-on-failure` would run every Swift Testing test of the bundle again.
package struct XcodebuildRetries: RetryingRunner {
    /// The command as it ran.
    package var invocation: XcodebuildInvocation
    package var plan: RetryPlan

    package init(invocation: XcodebuildInvocation, plan: RetryPlan) {
        (self.invocation, self.plan) = (invocation, plan)
    }

    package func runAgain(_ batch: RetrySchedule.Batch, process: Int, in database: LedgerDatabase) throws -> (
        status: Int32, problems: [String]
    ) {
        let (retry, arguments) = invocation.retrying(
            batch.tests, outputFolder: outputFolder.appending(path: "retry-\(process)"))
        let processes = XcodebuildProcesses(
            run: run, metadata: metadata, environment: environment, databasePath: databasePath)
        return try processes.run(
            arguments, bundle: retry.resultBundle.path, attemptOffset: batch.offset, in: database)
    }
}
