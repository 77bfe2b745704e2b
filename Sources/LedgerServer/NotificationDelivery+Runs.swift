import Foundation
import LedgerCore
import LedgerStore

extension NotificationDelivery {
    /// What the reports say of each stored run, for the targets that want it: the tests flaky
    /// with the run and not before it (`became-flaky`), and on the default branch the failures
    /// that are new there or had passed since they last failed (`broken-on-default`).
    ///
    /// A run is judged once it has ended, by the upload that brought its last results.
    ///
    /// - Parameters:
    ///   - runs: the ids of the runs an upload stored.
    ///   - database: the ledger they are stored in.
    ///   - configuration: the server's window, thresholds and default branch.
    ///   - now: when the reports are judged, in seconds since 1970.
    /// - Returns: the notifications, none when no target wants either event.
    /// - Throws: what reading the ledger throws.
    func runEvents(
        of runs: [String], in database: any ResultStore, configuration: ServerConfiguration, now: Double
    ) throws -> [TestNotification] {
        let wanted = Set(targets.flatMap(\.events))
        let flaky = wanted.contains(.becameFlaky)
        let broken = wanted.contains(.brokenOnDefault)
        guard flaky || broken else { return [] }
        let defaultBranch = (configuration.fixLanding ?? FixLanding()).defaultBranch
        var told: [TestNotification] = []
        for id in runs {
            guard let run = try database.windowRun(id: id), let listing = try database.run(id: id), listing.kind == nil,
                listing.endedAt != nil
            else { continue }
            if flaky {
                let report = { (before: WindowRun?) in
                    try database.flakyReport(
                        project: run.project, runs: configuration.window, since: nil,
                        thresholds: configuration.thresholds, now: now, before: before)
                }
                let before = Set(try report(run).flaky.map(\.test))
                told += TestNotification.becameFlaky(try report(nil).flaky, before: before, project: run.project)
            }
            if broken, listing.branch == defaultBranch {
                told += TestNotification.brokenOnDefault(
                    try database.runReport(
                        run: id, project: run.project, base: defaultBranch, window: configuration.window,
                        thresholds: configuration.thresholds, now: now))
            }
        }
        return told
    }
}
