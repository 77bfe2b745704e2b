import Foundation
import LedgerCore
import LedgerStore

extension ResultStore {
    /// What each failure of `run` (the newest when `nil`) means against `base`, judged by `config`'s
    /// window and thresholds, with each test's owners: every door's run report (`report run`,
    /// `record`, `mcp`).
    package func runReport(run: String?, project: String?, base: String, config: ProjectConfiguration) throws
        -> RunReport
    {
        let report = try runReport(
            run: run, project: project, base: base, window: config.reportWindow, thresholds: config.flaky,
            now: Date().timeIntervalSince1970)
        return report.owned(by: try CheckoutOwnership.owners(of: report.project, config: config, in: self))
    }
}
