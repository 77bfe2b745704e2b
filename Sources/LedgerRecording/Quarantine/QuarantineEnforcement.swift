import Foundation
import LedgerCore
import LedgerStore

/// What quarantine does to a recorded command: skipped tests left out of `swift test`, and a build
/// that failed only for muted tests passed.
package struct QuarantineEnforcement {
    /// Muted test ids: they run, but their failures do not fail the build.
    package let muted: [String]
    /// Skipped test ids: they do not run.
    package let skipped: [String]
    /// The entries in force for the run, whichever list they came from.
    package let entries: [QuarantinedTest]

    /// The quarantine in force for a run of `configuration`.
    package init(_ entries: [QuarantinedTest], configuration: String) {
        let applying = entries.filter { $0.applies(to: configuration) }
        self.entries = applying
        muted = applying.filter { $0.mode == .mute }.map(\.test)
        skipped = applying.filter { $0.mode == .skip }.map(\.test)
    }

    /// The command to run: `swift test` with a `--skip` and `xcodebuild` with a `-skip-testing:` for
    /// each skipped test; another command as it is (with a note that its tests to skip are left to
    /// its module, which reads them from `TESTLEDGER_QUARANTINE`). `selecting` (a shard's `--filter`s or
    /// `-only-testing:`s) is added to `swift test` and `xcodebuild`.
    package func arguments(of command: TestCommand, selecting: [String] = []) -> [String] {
        if !command.runner.selectsTestsByArgument, !skipped.isEmpty {
            printError(
                "testledger: \(skipped.count) quarantined test(s) to skip are handed to the command in "
                    + "\(LedgerEnvironment.Module.quarantine); a runner without TestLedger's module runs them")
        }
        return command.arguments(skipping: skipped, selecting: selecting)
    }

    /// After the command, once ``LedgerStore/ResultStore/afterRunsStored(_:policy:now:)`` flagged
    /// `run`'s muted tests: decides the exit status.
    ///
    /// - Parameters:
    ///   - status: the command's exit status.
    ///   - run: the run stored.
    ///   - stored: what was done after `run` was stored: its muted tests.
    ///   - database: the ledger.
    /// - Returns: the status to exit with (0 when every failure was a muted test's) and the muted
    ///   tests that failed.
    /// - Throws: what reading `run`'s failing tests from `database` throws.
    package func settle(status: Int32, run: String, stored: RunStoredChanges, in database: any ResultStore) throws -> (
        status: Int32, mutedFailures: [String]
    ) {
        Self.settle(status: status, failing: try database.failingTests(run: run), muted: Set(stored.muted[run] ?? []))
    }

    /// The exit status once muted tests are forgiven: 0 when the command failed and every failing
    /// test is muted; a status that says nothing of tests (a signal, a build that never ran them)
    /// is kept.
    /// - Returns: the status and the failing tests that are muted.
    package static func settle(status: Int32, failing: [String], muted: Set<String>) -> (
        status: Int32, mutedFailures: [String]
    ) {
        let mutedFailures = failing.filter { muted.contains($0) }
        let onlyMuted = status != 0 && status < 128 && !failing.isEmpty && mutedFailures.count == failing.count
        return (onlyMuted ? 0 : status, mutedFailures)
    }
}

extension RunStoredPolicy {
    /// What `ingest` and `record` do after storing a run: `.testledger.yml`'s automatic quarantine,
    /// the checkout's ownership, and the fixes followed onto its default branch.
    ///
    /// - Parameters:
    ///   - config: the project's configuration.
    ///   - quarantine: the quarantine in force, when it is not the ledger's (a team server's list).
    /// - Returns: the policy: `config`'s automatic quarantine, the checkout's `CODEOWNERS` and
    ///   `owners` rules, and `quarantine`.
    package static func checkout(_ config: ProjectConfiguration, quarantine: [QuarantinedTest]? = nil)
        -> RunStoredPolicy
    {
        RunStoredPolicy(
            automaticQuarantine: AutomaticQuarantine(
                config.quarantine, window: config.reportWindow, thresholds: config.flaky),
            ownership: CheckoutOwnership.read(config), quarantine: quarantine,
            fixLanding: FixLanding(
                branch: config.fixLanding.branch, runs: config.fixLanding.runs,
                checkout: GitInfo.topLevel(in: FileManager.default.currentDirectoryPath)))
    }
}

extension RunStoredChanges {
    /// Prints the automatic quarantine's changes, one line each.
    package func printQuarantineChanges() {
        for change in quarantine {
            let what = change.action == .remove ? "released" : "muted"
            print("testledger: quarantine: \(what) \(change.test) automatically (\(change.reason))")
        }
    }
}
