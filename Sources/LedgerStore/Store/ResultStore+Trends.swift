import LedgerCore

extension ResultStore {
    /// `report trends`: how the suite changed period by period over the runs of `branch`.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - branch: only runs of this branch; every run's when `nil`.
    ///   - orEveryBranch: read every run when none is of `branch` (a ledger that never named its
    ///     branches, for the default branch); the report's branch is then `nil`.
    ///   - since: seconds since 1970; only runs started since then.
    ///   - grouping: the periods: days, weeks or runs.
    ///   - window: the runs each period's flaky judgement looks back over.
    ///   - thresholds: the flaky thresholds.
    ///   - classifier: decides each test's layer.
    /// - Returns: the report; one without periods when nothing matched.
    /// - Throws: any database error.
    public func trendsReport(
        project: String?, branch: String?, orEveryBranch: Bool = false, since: Double, grouping: TrendsReport.Grouping,
        window: Int,
        thresholds: FlakyThresholds, classifier: LayerClassifier
    ) throws -> TrendsReport {
        try reading {
            try $0.reader.trendsReport(
                project: project, branch: branch, orEveryBranch: orEveryBranch, since: since, grouping: grouping,
                window: window,
                thresholds: thresholds, classifier: classifier)
        }
    }
}
