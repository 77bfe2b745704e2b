import Foundation
import LedgerCore
import LedgerStore

/// `record --retries N` for `swift test`: once the command has ended and its results are stored,
/// runs the run's failed tests again — only them, each up to N more times, until it passes — as
/// the next attempts of the same run. Muted tests are not retried.
package struct SwiftTestRetries: RetryingRunner {
    /// The command as it ran.
    package var invocation: SwiftTestInvocation
    package var retries: Int
    /// More failed tests than this, and nothing is retried.
    package var limit: Int
    package var muted: [String]
    /// With `--retry-only known-flaky`, what the ledger called flaky before the run.
    package var knownFlaky: KnownFlakiness?
    package var run: String
    package var metadata: RunMetadata
    /// The command's environment: the retries' is the same, with their attempt offset.
    package var environment: [String: String]
    /// Where each retry writes its outputs, one folder per process.
    package var outputFolder: URL
    package var databasePath: String

    package init(
        invocation: SwiftTestInvocation, retries: Int, limit: Int, muted: [String], knownFlaky: KnownFlakiness? = nil,
        run: String, metadata: RunMetadata, environment: [String: String], outputFolder: URL, databasePath: String
    ) {
        self.invocation = invocation
        self.retries = retries
        self.limit = limit
        self.muted = muted
        self.knownFlaky = knownFlaky
        self.run = run
        self.metadata = metadata
        self.environment = environment
        self.outputFolder = outputFolder
        self.databasePath = databasePath
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
