import Foundation
import LedgerCore

extension ReportReading {
    /// `report run`: the failures of a run classified against the base branch's earlier runs (or,
    /// when it has none, the project's runs just before it), the flaky report and the quarantine.
    ///
    /// - Parameters:
    ///   - run: the run's id; the newest run of `project` (or of the store) when `nil`.
    ///   - project: the project, when `run` is not given.
    ///   - base: the base branch.
    ///   - window: the flaky report's window, in runs; also how many of the project's earlier runs
    ///     are compared when the base branch has none.
    ///   - thresholds: the flaky report's thresholds.
    ///   - now: the time the flaky report and the quarantine are judged at.
    /// - Returns: the run's report.
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
            RunReport.Failing(
                test: $0.test, message: $0.message, file: $0.file, line: $0.line, declared: $0.declared)
        }
        let passed = Set(results.filter(\.outcome.isPass).map(\.test))
        // The project's runs of this configuration before this one, newest first.
        let earlier = try windowRuns(project: chosen.project, count: nil, since: nil)
            .drop { ($0.startedAt, $0.row) >= (chosen.startedAt, chosen.row) }
            .filter { $0.configuration == chosen.configuration }
        let history = try comparedHistory(of: chosen, base: base, earlier: Array(earlier.prefix(max(window, 0))))
        let flakyReport = try flakyReport(
            project: chosen.project, runs: window, since: nil, thresholds: thresholds, now: now, before: chosen)
        let failingTests = Set(failing.map(\.test))
        var report = RunReport.classify(
            run: (chosen.id, chosen.project, branch, chosen.revision, chosen.configuration), tests: results.count,
            failing: failing, passed: passed, base: (base, history), flaky: flakyReport.flaky,
            broken: flakyReport.broken, quarantine: try quarantined(project: chosen.project, at: now))
        report.groups = try failureGroups(of: [chosen], including: failingTests.contains)
        report.notAffected = try storeReader.notAffected(run: chosen.row)
        let upToThisRun = Array([chosen] + earlier.prefix(max(window - 1, 0)))
        let knownFlaky = report.failures.indices.filter { report.failures[$0].verdict == .knownFlaky }
        // Read together, as report flaky reads its culprits: one pass over the window's runs.
        let briefs = CulpritAnalysis.controllingFalseDiscoveries(
            try culpritBriefs(
                tests: knownFlaky.map { report.failures[$0].test }, project: chosen.project, runs: upToThisRun,
                configuration: chosen.configuration))
        for index in knownFlaky {
            guard let brief = briefs[report.failures[index].test] else { continue }
            report.failures[index].culprit = brief
            if let likely = CulpritRendering.likely(brief) { report.failures[index].evidence += "; " + likely }
        }
        return report
    }

    /// Which tests the compared runs failed, read from their summaries: the base branch's runs
    /// before `run`; or, when it has none, `earlier`, the project's runs just before it.
    private func comparedHistory(of run: WindowRun, base: String, earlier: [WindowRun]) throws
        -> RunReport.BaseHistory
    {
        let baseRuns = try baseRuns(of: run, branch: base)
        let compared = baseRuns.isEmpty ? earlier : baseRuns
        var everFailed = Set<Int64>()
        var newestFailed = Set<Int64>()
        // How many of the newest compared runs in a row failed each test the newest failed; the
        // tests every compared run so far (newest first) failed.
        var streaks: [Int64: Int] = [:]
        var running = Set<Int64>()
        try forEachSummary(of: compared, seconds: false) { comparedRun, summary in
            let entries = summary.entries
            var failed = Set<Int64>()
            for index in 0..<entries.count where entries.code(index).final.isFailure {
                failed.insert(entries.testID(index))
            }
            everFailed.formUnion(failed)
            if comparedRun.row == compared.first?.row {
                newestFailed = failed
                running = failed
            } else {
                running.formIntersection(failed)
            }
            for test in running { streaks[test, default: 0] += 1 }
            return true
        }
        let names = try testInfo(ids: Array(everFailed))
        func keys(_ rows: Set<Int64>) -> Set<String> { Set(rows.compactMap { names[$0]?.key }) }
        return RunReport.BaseHistory(
            branch: baseRuns.isEmpty ? nil : base, runs: compared.count, everFailed: keys(everFailed),
            newestFailed: keys(newestFailed), newestRun: compared.first?.id,
            failingStreaks: Dictionary(
                streaks.compactMap { row, streak in names[row].map { ($0.key, streak) } },
                uniquingKeysWith: max))
    }
}
