import Foundation
import LedgerCore

extension ReportReading {
    /// `report slow`: each test's durations over a window of runs against the window before it,
    /// read from the runs' summaries.
    ///
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window (and the window before).
    ///   - since: when given, the window is the runs since then, and the window before as many runs
    ///     before them.
    ///   - thresholds: which runs are noise.
    ///   - criteria: what counts as a slowdown.
    ///   - limit: at most this many slowest tests.
    /// - Returns: the report; an empty one when there is no project.
    /// - Throws: any database error.
    package func slowReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds,
        criteria: SlowReport.Criteria, limit: Int
    ) throws -> SlowReport {
        guard let project = try project ?? latestProject() else {
            return SlowAnalysis.report([], runs: 0, previousRuns: 0, criteria: criteria, limit: limit)
        }
        let current: [WindowRun]
        let previous: [WindowRun]
        if let since {
            current = try windowRuns(project: project, count: nil, since: since)
            let older = try windowRuns(project: project, count: current.count * 2, since: nil)
            previous = Array(older.dropFirst(current.count))
        } else {
            let runs = try windowRuns(project: project, count: count * 2, since: nil)
            current = Array(runs.prefix(count))
            previous = Array(runs.dropFirst(count))
        }
        var durations: [TestInConfiguration: (current: [Double], previous: [Double])] = [:]
        var counted = (current: 0, previous: 0)
        do {
            for (runs, isCurrent) in [(current, true), (previous, false)] {
                try forEachSummary(of: runs, seconds: true) { run, summary in
                    let health = RunHealth(run: run.id, at: run.startedAt, tests: summary.tests, failed: summary.failed)
                    guard !health.isNoise(thresholds) else { return true }
                    if isCurrent { counted.current += 1 } else { counted.previous += 1 }
                    let entries = summary.entries
                    for index in 0..<entries.count {
                        let code = entries.code(index)
                        guard code.final.isPass, !code.anyFailed else { continue }
                        let key = TestInConfiguration(test: entries.testID(index), configuration: run.configuration)
                        if isCurrent {
                            durations[key, default: ([], [])].current.append(summary.seconds(index))
                        } else if durations[key] != nil {
                            durations[key]?.previous.append(summary.seconds(index))
                        }
                    }
                    return true
                }
            }
        }
        let info = try testInfo(ids: Array(Set(durations.keys.map(\.test))))
        let histories = durations.map { key, seconds in
            DurationHistory(
                test: info[key.test]?.key ?? "#\(key.test)", configuration: key.configuration,
                current: seconds.current, previous: seconds.previous)
        }
        return SlowAnalysis.report(
            histories, runs: counted.current, previousRuns: counted.previous, criteria: criteria, limit: limit)
    }
}
