import Foundation
import LedgerCore
import LedgerStore

/// `record --retries N` for `swift test`: once the command has ended and its results are stored,
/// runs the run's failed tests again — only them, each up to N more times, until it passes — as
/// the next attempts of the same run. Muted tests are not retried.
package struct SwiftTestRetries: RetryingRunner {
    /// The command as it ran.
    package var invocation: SwiftTestInvocation
    package var plan: RetryPlan

    package init(invocation: SwiftTestInvocation, plan: RetryPlan) {
        (self.invocation, self.plan) = (invocation, plan)
    }

    /// Runs `batch`'s tests again in one `swift test --skip-build`, each attempt `batch.offset`
    /// later, and stores what it wrote.
    package func runAgain(_ batch: RetrySchedule.Batch, process: Int, in database: LedgerDatabase) throws -> (
        status: Int32, problems: [String]
    ) {
        let retry = invocation.retrying(batch.tests, outputFolder: outputFolder.appending(path: "retry-\(process)"))
        return try processes.run(
            retry, arguments: retry.arguments, tests: batch.tests, attemptOffset: batch.offset, in: database)
    }

    private var processes: SwiftTestProcesses {
        SwiftTestProcesses(run: run, metadata: metadata, environment: environment, databasePath: databasePath)
    }
}
