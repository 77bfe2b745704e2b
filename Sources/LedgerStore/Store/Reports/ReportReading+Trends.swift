import LedgerCore

extension ReportReading {
    /// `report trends`: the runs of `branch` since `since`, oldest first, through one
    /// ``TrendsBuilder`` pass over their summaries.
    ///
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - branch: only runs of this branch; every run's when `nil`.
    ///   - orEveryBranch: read every run when none is of `branch` (a ledger that never named its
    ///     branches, for the default branch).
    ///   - since: seconds since 1970; only runs started since then.
    ///   - grouping: the periods.
    ///   - window: the runs each period's flaky judgement looks back over.
    ///   - thresholds: the flaky thresholds.
    ///   - classifier: decides each test's layer.
    /// - Returns: the report; one without periods when nothing matched.
    /// - Throws: any database error.
    package func trendsReport(
        project: String?, branch: String?, orEveryBranch: Bool = false, since: Double, grouping: TrendsReport.Grouping,
        window: Int,
        thresholds: FlakyThresholds, classifier: LayerClassifier
    ) throws -> TrendsReport {
        guard let project = try project ?? latestProject() else {
            return TrendsReport(
                project: "", branch: branch, by: grouping, since: nil, window: window, periods: [], changes: [])
        }
        let every = try Array(windowRuns(project: project, count: nil, since: since).reversed())
        var branch = branch
        var runs = try every.filter { run in try branch == nil || self.branch(ofRun: run.row) == branch }
        if runs.isEmpty, orEveryBranch {
            (runs, branch) = (every, nil)
        }
        let info = try testInfo(project: project).sorted { $0.key < $1.key }
        // A project's test rows are close together: an array from its lowest row finds a row's
        // index without hashing it, as many times as there are results.
        let lowest = info.first?.key ?? 0
        var index = [Int](repeating: -1, count: Int((info.last?.key ?? lowest) - lowest) + 1)
        for (position, row) in info.enumerated() { index[Int(row.key - lowest)] = position }
        var builder = TrendsBuilder(
            project: project, branch: branch, grouping: grouping, window: window, thresholds: thresholds,
            tests: info.map { _, about in
                .init(
                    name: about.key,
                    layer: classifier.layer(explicit: about.declaredLayer, id: about.key, file: about.file))
            })
        let ends = try runEnds(runs: runs)
        var entries: [TrendsBuilder.Entry] = []
        try forEachSummary(of: runs, seconds: true) { run, summary in
            entries.removeAll(keepingCapacity: true)
            let codes = summary.entries
            for position in 0..<codes.count {
                let row = codes.testID(position) - lowest
                guard row >= 0, row < index.count, case let test = index[Int(row)], test >= 0 else { continue }
                let code = codes.code(position)
                entries.append(
                    .init(
                        test: test, final: code.final, anyPassed: code.anyPassed, anyFailed: code.anyFailed,
                        seconds: summary.seconds(position)))
            }
            builder.add(
                .init(
                    id: run.id, at: run.startedAt, revision: run.revision, configuration: run.configuration,
                    seconds: ends[run.row]?.seconds ?? 0, failed: ends[run.row]?.passed != true),
                entries: entries)
            return true
        }
        return builder.report()
    }
}
