import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// What `record` settles before the command runs: the run, its ledger, the quarantine, the shard,
/// the new tests to repeat, and what the command's environment tells the tests.
package struct RecordPlan {
    package let metadata: RunMetadata
    package let runID: String
    package let folder: URL
    package let network: NetworkBudget
    package let retries: Int
    package let command: TestCommand
    package let runStart: LedgerRecord
    /// `nil` when the ledger cannot be written: the tests then run without being recorded.
    package let database: LedgerDatabase?
    package let flakyBefore: Set<String>
    package let quarantine: QuarantineEnforcement
    package let share: RecordShard?
    package let selected: RecordSelected?
    /// A full run's test target hashes, read while the tests run.
    package var fullRunHashes: FullRunHashes?
    package let repeats: Int
    package let repeatBudget: Double?
    /// What the base branch ran, read before the command: new tests are the others.
    package let known: TestsKnownBefore?
    /// The command's environment: this process's, with what the tests and the runner's module read.
    package var environment: [String: String] = [:]

    /// A shard with no tests runs nothing (no `--filter` would run them all), nor a selection of none.
    package var runsNothing: Bool {
        share.map { $0.isListedByTheRunner && $0.tests.isEmpty } == true || selected?.runsNothing == true
    }

    /// The command with the arguments that skip the quarantined tests and select the shard's or
    /// the selection's.
    package var arguments: [String] {
        quarantine.arguments(of: command, selecting: share?.arguments ?? selected?.arguments ?? [])
    }
}

/// What became of the run once the command ended: the status the job gets so far, what could not
/// be stored, and what retries and repeats did.
package struct RecordOutcome {
    /// The command's status, until retries account for its failures.
    package var status: Int32
    package var failures: [String] = []
    package var retried: RetryOutcome?
    package var repeated: NewTestRepeats.Outcome?

    package init(status: Int32) { self.status = status }

    /// The job's status once the quarantine has had its say, and why.
    package struct Settled {
        package var status: Int32
        package var mutedFailures: [String]
        /// `--fail-on-retried` and a test passed only on a retry.
        package var failedForRetries: Bool
        /// What storing the run changed that the team's targets are told of.
        package var notifications: [TestNotification] = []
    }
}
