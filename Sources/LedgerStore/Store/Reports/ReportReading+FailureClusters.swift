import LedgerCore

extension ReportReading {
    /// `report failures --clusters`: the tests that fail in the same runs of the window
    /// (``FailureClustering``), each cluster with what separates the runs it fails in (a host, a
    /// configuration, the load). The runs' summaries name the tests that failed an attempt.
    ///
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - including: which tests count, by test id; all by default.
    /// - Returns: the clusters, the one failing in the most runs first; none for an empty store.
    /// - Throws: any database error.
    package func failureClusters(
        project: String?, runs count: Int, since: Double?, including: (String) -> Bool = { _ in true }
    ) throws -> [FailureCluster] {
        guard let project = try project ?? latestProject() else { return [] }
        let runs = try windowRuns(project: project, count: count, since: since)
        var failing: [Int64: Set<String>] = [:]
        try forEachSummary(of: runs, seconds: false) { run, summary in
            let entries = summary.entries
            for index in 0..<entries.count where entries.code(index).anyFailed {
                failing[entries.testID(index), default: []].insert(run.id)
            }
            return true
        }
        let names = try testInfo(ids: Array(failing.keys))
        var byTest: [String: Set<String>] = [:]
        for (test, runs) in failing {
            let key = names[test]?.key ?? "#\(test)"
            if including(key) { byTest[key] = runs }
        }
        let loads = try runLoads(runs: runs)
        return FailureClustering.clusters(
            failing: byTest,
            runs: runs.map { run in
                FailureClustering.Run(
                    id: run.id, startedAt: run.startedAt, host: loads[run.row]?.host ?? nil,
                    configuration: run.configuration, load: loads[run.row]?.load ?? nil)
            })
    }
}
