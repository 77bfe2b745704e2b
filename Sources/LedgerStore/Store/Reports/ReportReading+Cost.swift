import LedgerCore

extension ReportReading {
    /// `report cost`: the CI time the window's flaky tests cost.
    ///
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: when given, every run since then instead.
    ///   - thresholds: which tests are flaky.
    ///   - now: the time the flaky report is judged at.
    /// - Returns: the report; an empty one when there is no project.
    /// - Throws: any database error.
    package func costReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double
    ) throws -> CostReport {
        guard let project = try project ?? latestProject() else { return CostReport(runs: 0, tests: [], lostRuns: []) }
        let runs = try windowRuns(project: project, count: since == nil ? count : nil, since: since)
        let flaky = try flakyReport(project: project, runs: runs.count, since: since, thresholds: thresholds, now: now)
            .flaky.map(\.test)
        var failing: [Int64: [Int64]] = [:]
        try forEachSummary(of: runs, seconds: false) { run, summary in
            let entries = summary.entries
            for index in 0..<entries.count where entries.code(index).final.isFailure {
                failing[run.row, default: []].append(entries.testID(index))
            }
            return true
        }
        let names = try testInfo(ids: Array(Set(failing.values.joined())))
        let ends = try runEnds(runs: runs)
        let ids = Dictionary(runs.map { ($0.row, $0.id) }, uniquingKeysWith: { first, _ in first })
        let attempts = try flaky.isEmpty ? [] : evidenceRows(tests: flaky, project: project, runs: runs).attempts
        return CostAnalysis.report(
            runs: runs.map { run in
                CostAnalysis.Run(
                    id: run.id, seconds: ends[run.row]?.seconds ?? 0,
                    failing: (failing[run.row] ?? []).map { names[$0]?.key ?? "#\($0)" },
                    failed: ends[run.row]?.passed != true)
            },
            flaky: Set(flaky),
            attempts: attempts.map { attempt in
                CostAnalysis.Attempt(
                    test: attempt.test, run: ids[attempt.run] ?? "#\(attempt.run)", attempt: attempt.attempt,
                    failed: attempt.outcome.flatMap(Outcome.init(rawValue:))?.isFailure ?? true,
                    seconds: attempt.duration ?? 0)
            })
    }
}
