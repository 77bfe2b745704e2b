import Foundation
import LedgerCore
import LedgerStore

/// `record --retries N` for `xcodebuild`: the failed tests alone run again, `test-without-building
/// -only-testing:` each, each retry's result bundle stored as the next attempts of the same run.
/// Xcode's own `-retry-tests-on-failure` would run every Swift Testing test of the bundle again.
package struct XcodebuildRetries: RetryingRunner {
    /// The command as it ran.
    package var invocation: XcodebuildInvocation
    package var retries: Int
    package var limit: Int
    package var muted: [String]
    package var knownFlaky: KnownFlakiness?
    package var run: String
    package var metadata: RunMetadata
    /// The command's environment: the retries' is the same, with their attempt offset.
    package var environment: [String: String]
    /// Where each retry writes its bundle, one folder per process.
    package var outputFolder: URL
    package var databasePath: String

    package init(
        invocation: XcodebuildInvocation, retries: Int, limit: Int, muted: [String], knownFlaky: KnownFlakiness?,
        run: String, metadata: RunMetadata, environment: [String: String], outputFolder: URL, databasePath: String
    ) {
        (self.invocation, self.retries, self.limit, self.muted) = (invocation, retries, limit, muted)
        (self.knownFlaky, self.run, self.metadata, self.environment) = (knownFlaky, run, metadata, environment)
        (self.outputFolder, self.databasePath) = (outputFolder, databasePath)
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
