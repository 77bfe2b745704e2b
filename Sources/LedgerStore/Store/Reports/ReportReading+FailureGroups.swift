import Foundation
import LedgerCore

extension ReportReading {
    /// `report failures`: the failing attempts of the window's runs, grouped by cause
    /// (``FailureGrouping``). The runs' summaries name the tests that failed an attempt, so only
    /// those tests' results are read.
    ///
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - including: which tests' failures count, by test id; all by default.
    /// - Returns: the groups, the largest first; none for an empty store.
    /// - Throws: any database error.
    package func failureGroups(
        project: String?, runs count: Int, since: Double?, including: (String) -> Bool = { _ in true }
    ) throws -> [FailureGroup] {
        guard let project = try project ?? latestProject() else { return [] }
        return try failureGroups(
            of: try windowRuns(project: project, count: count, since: since), including: including)
    }

    /// The failing attempts of `runs` whose tests are included, grouped by cause.
    package func failureGroups(of runs: [WindowRun], including: (String) -> Bool) throws -> [FailureGroup] {
        var failing: [(run: WindowRun, test: Int64)] = []
        try forEachSummary(of: runs, seconds: false) { run, summary in
            let entries = summary.entries
            for index in 0..<entries.count where entries.code(index).anyFailed {
                failing.append((run, entries.testID(index)))
            }
            return true
        }
        let names = try testInfo(ids: Array(Set(failing.map(\.test))))
        var samples: [FailureSample] = []
        for (run, test) in failing where including(names[test]?.key ?? "#\(test)") {
            for attempt in try failingAttempts(run: run.row, test: test) {
                samples.append(
                    FailureSample(
                        test: names[test]?.key ?? "#\(test)", run: run.id, at: run.startedAt,
                        message: attempt.message ?? attempt.outcome ?? "crashed", file: attempt.file,
                        line: attempt.line))
            }
        }
        return FailureGrouping.groups(samples)
    }
}
