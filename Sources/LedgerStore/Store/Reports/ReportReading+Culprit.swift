import LedgerCore

extension ReportReading {
    /// `report culprit`: what separates a test's failing attempts from its passing ones over a
    /// window of the project's runs.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - configuration: only runs of this configuration; every configuration when `nil`.
    ///   - criteria: the thresholds of a verdict.
    /// - Returns: the report of the test's attempts in the window.
    /// - Throws: ``StoreError/noSuchTest(_:)`` when no run of the window has the test; any
    ///   database error.
    package func culpritReport(
        test: String, project: String?, runs count: Int, since: Double?, configuration: String?,
        criteria: CulpritAnalysis.Criteria = .init()
    ) throws -> CulpritReport {
        guard let project = try project ?? latestProject() else { throw StoreError.noSuchTest(test) }
        var runs = try windowRuns(project: project, count: configuration == nil ? count : nil, since: since)
        if let configuration { runs = Array(runs.filter { $0.configuration == configuration }.prefix(count)) }
        let report = try culpritReport(
            test: test, project: project, runs: runs, configuration: configuration, criteria: criteria)
        guard report.failingAttempts + report.passingAttempts > 0 else {
            throw StoreError.noSuchTest(test + " in the window's runs")
        }
        return report
    }

    /// `report flaky`'s culprit column: each flaky test's culprit over the same window, its
    /// configuration's runs.
    /// - Parameters:
    ///   - report: the flaky report.
    ///   - project: its project; the newest run's when `nil`.
    ///   - count: how many of the newest runs made its window.
    ///   - since: only runs started since then, in seconds since 1970.
    /// - Returns: the report with each flaky test's brief culprit; the report as it is when it has
    ///   no flaky test or there is no project.
    /// - Throws: any database error.
    package func withCulprits(_ report: FlakyReport, project: String?, runs count: Int, since: Double?) throws
        -> FlakyReport
    {
        guard !report.flaky.isEmpty, let project = try project ?? latestProject() else { return report }
        let window = try windowRuns(project: project, count: count, since: since)
        var report = report
        // The flaky tests of one configuration are read together, over that configuration's runs;
        // their suspects are controlled over the whole report.
        let byConfiguration = Dictionary(grouping: report.flaky.indices) { report.flaky[$0].configuration }
        var briefs: [Int: CulpritReport.Brief] = [:]
        for (configuration, indices) in byConfiguration.sorted(by: { $0.key < $1.key }) {
            let read = try culpritBriefs(
                tests: indices.map { report.flaky[$0].test }, project: project,
                runs: window.filter { $0.configuration == configuration }, configuration: configuration)
            for index in indices { briefs[index] = read[report.flaky[index].test] }
        }
        for (index, brief) in CulpritAnalysis.controllingFalseDiscoveries(briefs) {
            report.flaky[index].culprit = brief
        }
        return report
    }

    /// The culprit report over `runs`, which are of `configuration` when one is given.
    func culpritReport(
        test: String, project: String, runs: [WindowRun], configuration: String?,
        criteria: CulpritAnalysis.Criteria = .init()
    ) throws -> CulpritReport {
        let attempts = try evidenceRows(tests: [test], project: project, runs: runs).evidence(runs: runs)[test] ?? []
        return CulpritAnalysis.report(
            test: test, configuration: configuration ?? "*", attempts: attempts, runs: runs.count, criteria: criteria)
    }

    /// The brief of each test's culprit report over `runs`, which are of `configuration`, the
    /// tests' attempts read together; by test. Each suspect is judged for its test alone: a report
    /// of several controls them with ``CulpritAnalysis/controllingFalseDiscoveries(_:significance:)``.
    func culpritBriefs(tests: [String], project: String, runs: [WindowRun], configuration: String) throws
        -> [String: CulpritReport.Brief]
    {
        guard !tests.isEmpty else { return [:] }
        let attempts = try evidenceRows(tests: tests, project: project, runs: runs).evidence(runs: runs)
        var briefs: [String: CulpritReport.Brief] = [:]
        for test in tests {
            briefs[test] = CulpritAnalysis.brief(
                test: test, configuration: configuration, attempts: attempts[test] ?? [], runs: runs.count)
        }
        return briefs
    }
}
