import LedgerCore
import LedgerStore

/// What `testledger mcp` answers from: a ledger (file or database) on this machine, or a team's
/// server through its API. Each report comes as the matching `--format json` has it.
package protocol AgentLedger: Sendable {
    /// The flaky tests over the newest `window` runs, with their culprits and owners; only
    /// `owner`'s tests when one is named.
    func flakyReport(window: Int?, owner: String?) throws -> FlakyReport
    /// What each failure of `run` (the newest when `nil`) means against `base`.
    func runReport(run: String?, base: String) throws -> RunReport
    /// A test's `attempt` (its final one when `nil`) in `run` (its newest when `nil`).
    func testDetail(test: String, run: String?, attempt: Int?) throws -> TestDetail
    /// The test's attempts in the newest `limit` runs of its project, newest first.
    func history(of detail: TestDetail, limit: Int) throws -> [AttemptsInRun]
    /// Why `test` fails, over the newest `window` runs (the configured window when `nil`).
    func culpritReport(test: String, window: Int?) throws -> CulpritReport
    /// Failures grouped by cause over the newest `window` runs, the largest first.
    func failureGroups(window: Int?) throws -> [FailureGroup]
    /// The slowest tests over the newest `window` runs, and the ones that became slower.
    func slowReport(window: Int?, limit: Int) throws -> SlowReport
    /// Puts `test` in quarantine.
    func quarantine(test: String, mode: QuarantineMode, reason: String) throws -> [QuarantineChange]
    /// Takes `test` out of quarantine.
    func release(test: String, reason: String) throws -> [QuarantineChange]
    /// Where `test` stands over the window, as `testledger status` says.
    func standing(test: String) throws -> TestStanding
    /// Per run of the newest `runs` that selected its tests, what selection missed and saved.
    func selectionReport(runs: Int?) throws -> SelectionReport
    /// How the suite changed `by` period since `since` (`90d`, a date) on `branch` (the default
    /// branch when `nil`), as `report trends` says.
    func trendsReport(by: TrendsReport.Grouping, since: String, branch: String?) throws -> TrendsReport
}

/// Who changes the quarantine through `testledger mcp`, for the audit trail.
package let agentName = "mcp"
