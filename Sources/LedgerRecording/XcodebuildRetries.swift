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
        var variables = environment
        variables.merge(
            XcodebuildInvocation.testRunnerEnvironment([
                LedgerEnvironment.attemptOffsetVariable: String(batch.offset)
            ])
        ) { _, offset in offset }
        let status = try ChildProcess(arguments: arguments, environment: variables).run { _ in }
        database.recoverPendingJournals(databasePath: databasePath)
        let bundle = retry.resultBundle.path
        guard XCResultBundle.isBundle(bundle) else {
            return (status, ["xcodebuild wrote no result bundle at \(bundle) (it exited with \(status))"])
        }
        do {
            _ = try Ingestion.ingest(
                XCResultBundle(path: bundle), metadata: metadata, runID: run, interrupted: status >= 128,
                attemptOffset: batch.offset, into: database)
        } catch {
            return (status, ["\(error)"])
        }
        return (status, [])
    }
}
