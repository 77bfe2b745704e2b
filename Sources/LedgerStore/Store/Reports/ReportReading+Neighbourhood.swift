import LedgerCore

extension ReportReading {
    /// What ran beside `attempts`, failed in their runs and ran just before them, over `runs`:
    /// each run's summary says whether any of its attempts ran at once; only the runs where some
    /// did are read whole, one at a time.
    package func neighbourhood(around attempts: [EvidenceRows.Attempt], runs: [WindowRun]) throws -> RunNeighbourhood {
        var neighbourhood = RunNeighbourhood()
        let byRun = Dictionary(grouping: attempts, by: \.run)
        var concurrent: [Int64] = []
        var serial: [Int64] = []
        try forEachSummary(of: runs.filter { byRun[$0.row] != nil }, seconds: false) { run, summary in
            guard summary.concurrent == false else {
                concurrent.append(run.row)
                return true
            }
            let entries = summary.entries
            neighbourhood.addSerialRun(
                run.row, failed: (0..<entries.count).filter { entries.code($0).anyFailed }.map(entries.testID))
            serial += (byRun[run.row] ?? []).map(\.id)
            return true
        }
        for run in concurrent {
            neighbourhood.addRun(run, rows: try timeline(run: run), compared: byRun[run] ?? [])
        }
        neighbourhood.addPreceding(try precedingTests(of: serial))
        neighbourhood.addKeys(try testInfo(ids: neighbourhood.namedTests).mapValues(\.key))
        neighbourhood.addSteps(try activityRows(results: neighbourhood.companions))
        return neighbourhood
    }
}
