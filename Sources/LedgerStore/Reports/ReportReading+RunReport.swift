import Foundation
import LedgerCore

extension ReportReading {
    /// `report run`: the failures of a run classified against the base branch's earlier runs, the
    /// flaky report and the quarantine.
    ///
    /// - Parameters:
    ///   - run: the run's id; the newest run of `project` (or of the store) when `nil`.
    ///   - project: the project, when `run` is not given.
    ///   - base: the base branch.
    ///   - window: the flaky report's window, in runs.
    ///   - thresholds: the flaky report's thresholds.
    ///   - now: the time the flaky report and the quarantine are judged at.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    package func runReport(
        run: String?, project: String?, base: String, window: Int, thresholds: FlakyThresholds, now: Double
    ) throws -> RunReport {
        guard let id = try run ?? latestRunID(project: project) else {
            throw StoreError.noSuchRun(project.map { "of project \($0)" } ?? "at all")
        }
        guard let chosen = try windowRun(id: id, project: project) else { throw StoreError.noSuchRun(id) }
        let branch = try branch(ofRun: chosen.row)
        let results = try finalResults(run: chosen.row)
        let failing = results.filter(\.outcome.isFailure).map {
            RunReport.Failing(test: $0.test, message: $0.message)
        }
        let passed = Set(results.filter(\.outcome.isPass).map(\.test))
        let history = try baseHistory(of: chosen, branch: base)
        let failingTests = Set(failing.map(\.test))
        var report = RunReport.classify(
            run: (chosen.id, chosen.project, branch, chosen.revision, chosen.configuration), tests: results.count,
            failing: failing, passed: passed, base: (base, history),
            flaky: try flakyReport(
                project: chosen.project, runs: window, since: nil, thresholds: thresholds, now: now, before: chosen
            ).flaky,
            quarantine: try quarantined(project: chosen.project, at: now))
        report.groups = try failureGroups(of: [chosen], including: failingTests.contains)
        let upToThisRun = try windowRuns(project: chosen.project, count: nil, since: nil)
            .drop { ($0.startedAt, $0.row) > (chosen.startedAt, chosen.row) }
            .filter { $0.configuration == chosen.configuration }.prefix(CulpritAnalysis.defaultRuns)
        for index in report.failures.indices where report.failures[index].verdict == .knownFlaky {
            let brief = try culpritReport(
                test: report.failures[index].test, project: chosen.project, runs: Array(upToThisRun),
                configuration: chosen.configuration
            ).brief
            report.failures[index].culprit = brief
            if let likely = CulpritRendering.likely(brief) { report.failures[index].evidence += "; " + likely }
        }
        return report
    }

    /// Which tests the base branch's runs before `run` failed, read from their summaries.
    private func baseHistory(of run: WindowRun, branch: String) throws -> RunReport.BaseHistory {
        let baseRuns = try baseRuns(of: run, branch: branch)
        var everFailed = Set<Int64>()
        var newestFailed = Set<Int64>()
        try forEachSummary(of: baseRuns, seconds: false) { baseRun, summary in
            let entries = summary.entries
            for index in 0..<entries.count where entries.code(index).final.isFailure {
                everFailed.insert(entries.testID(index))
                if baseRun.row == baseRuns.first?.row { newestFailed.insert(entries.testID(index)) }
            }
            return true
        }
        let names = try testInfo(ids: Array(everFailed))
        func keys(_ rows: Set<Int64>) -> Set<String> { Set(rows.compactMap { names[$0]?.key }) }
        return RunReport.BaseHistory(
            everFailed: keys(everFailed), newestFailed: keys(newestFailed), newestRun: baseRuns.first?.id)
    }
}
