import Foundation
import LedgerCore
import LedgerStore

/// `testledger mcp --db`: answers from a ledger this machine opens, judged by the checkout's
/// `.testledger.yml`, with owners as `report` names them (the checkout's CODEOWNERS, else the
/// ones kept).
package struct LocalLedger: AgentLedger {
    package let database: any ResultStore
    package let config: ProjectConfiguration

    package init(database: any ResultStore, config: ProjectConfiguration) {
        (self.database, self.config) = (database, config)
    }

    package func flakyReport(window: Int?, owner: String?) throws -> FlakyReport {
        let window = window ?? config.reportWindow
        let report = try database.withCulprits(
            try database.flakyReport(
                project: nil, runs: window, since: nil, thresholds: config.flaky, now: Date().timeIntervalSince1970),
            project: nil, runs: window, since: nil)
        guard let owners = try newestOwners() else { return report }
        return report.scoped(to: owner, owners: owners)
    }

    package func runReport(run: String?, base: String) throws -> RunReport {
        try database.runReport(run: run, project: nil, base: base, config: config)
    }

    package func testDetail(test: String, run: String?, attempt: Int?) throws -> TestDetail {
        let detail = try database.testDetail(test: test, run: run, project: nil, attempt: attempt)
        guard let project = try database.project(ofRun: detail.run) else { return detail }
        return detail.owned(by: try CheckoutOwnership.owners(of: project, config: config, in: database))
    }

    package func history(of detail: TestDetail, limit: Int) throws -> [AttemptsInRun] {
        let project = try database.project(ofRun: detail.run) ?? ""
        return try database.outcomeHistory(project: project, test: detail.test, limit: limit)
    }

    package func culpritReport(test: String, window: Int?) throws -> CulpritReport {
        try database.culpritReport(test: test, project: nil, runs: window ?? config.reportWindow, since: nil)
    }

    package func failureGroups(window: Int?) throws -> [FailureGroup] {
        let groups = try database.failureGroups(project: nil, runs: window ?? config.reportWindow, since: nil)
        return try newestOwners().map { groups.owned(by: $0) } ?? groups
    }

    package func slowReport(window: Int?, limit: Int) throws -> SlowReport {
        let report = try database.slowReport(
            project: nil, runs: window ?? config.reportWindow, since: nil, thresholds: config.flaky,
            criteria: SlowReport.Criteria(), limit: limit)
        return try newestOwners().map { report.owned(by: $0) } ?? report
    }

    package func quarantine(test: String, mode: QuarantineMode, reason: String) throws -> [QuarantineChange] {
        let project = try testsProject(test)
        return try database.quarantine([
            QuarantinedTest(
                project: project, test: test, mode: mode, reason: reason, by: agentName,
                since: Date().timeIntervalSince1970)
        ])
    }

    package func release(test: String, reason: String) throws -> [QuarantineChange] {
        try database.release(
            [test], project: try testsProject(test), reason: reason, by: agentName, at: Date().timeIntervalSince1970)
    }

    package func standing(test: String) throws -> TestStanding {
        let standings = try database.standings(
            of: [test], project: nil, runs: config.reportWindow, since: nil, thresholds: config.flaky,
            now: Date().timeIntervalSince1970)
        return standings[0]
    }

    package func selectionReport(runs: Int?) throws -> SelectionReport {
        guard let project = try database.latestProject() else { return SelectionReport([]) }
        return try database.selectionReport(project: project, runs: runs ?? config.reportWindow)
    }

    package func trendsReport(by: TrendsReport.Grouping, since: String, branch: String?) throws -> TrendsReport {
        try database.trendsReport(
            project: nil, branch: branch ?? config.defaultBranch(in: FileManager.default.currentDirectoryPath),
            orEveryBranch: branch == nil,
            since: try TimeWindow.start(since), grouping: by, window: config.reportWindow, thresholds: config.flaky,
            classifier: LayerClassifier(rules: config.layers))
    }

    /// The owners of the newest run's project; `nil` when the ledger has no runs.
    private func newestOwners() throws -> TestOwners? {
        try database.latestProject().map { try CheckoutOwnership.owners(of: $0, config: config, in: database) }
    }

    /// The newest run's project, once it is known to have `test`.
    private func testsProject(_ test: String) throws -> String {
        guard let project = try database.latestProject() else { throw StoreError.noSuchRun("at all") }
        guard try database.testIDs(project: project).contains(test) else {
            throw StoreError.noSuchTest("\(test) in project \(project)")
        }
        return project
    }
}
