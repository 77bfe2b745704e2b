import Foundation
import LedgerDelivery

/// What `record` is asked to do around its test command, as its flags say it.
package struct RecordOptions: Sendable {
    /// The test command.
    package var command: [String]
    /// Results files (or folders of `.xml` files) the command writes.
    package var resultFiles: [String] = []
    /// The base branch failures are judged against; `GITHUB_BASE_REF`, else main, when `nil`.
    package var base: String?
    /// Each failed test's retries; `TESTLEDGER_TEST_RETRIES`, else `.testledger.yml`'s, when `nil`.
    package var retries: Int?
    /// More failed tests than this, and nothing is retried.
    package var retryLimit = 20
    package var retryOnly: RetryScope = .all
    /// A test that passed only on a retry still fails the job.
    package var failOnRetried = false
    /// Each new test's repeats; `.testledger.yml`'s when `nil`.
    package var repeatNew: Int?
    /// The seconds the new tests' repeats may take; `.testledger.yml`'s when `nil`.
    package var repeatNewBudget: Double?
    /// `I/N`: the shard to run.
    package var shard: String?
    /// Run only the test targets the change can break.
    package var select = false
    /// With `select`: run everything, and store what selection would have skipped.
    package var observe = false
    package var githubComment = false
    package var checkRun = false
    /// The OpenTelemetry collector the run goes to as a trace.
    package var otlpEndpoint: String?
    /// The seconds the command's network calls may wait together.
    package var networkTimeout: Double = 10
    /// Fail the job when something reached for could not be reached.
    package var strict = false

    package init(command: [String]) { self.command = command }

    /// The branch failures and new tests are judged against.
    package var baseBranch: String {
        base ?? GitHubJob(environment: ProcessInfo.processInfo.environment).baseBranch
    }
}
