import LedgerCore

extension LedgerDatabase {
    /// The pyramid of one run (the newest by default), or of every test seen since a time.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - run: a run id (of `project`, when one is given); wins over `since`.
    ///   - since: seconds since 1970; each test counts once, by its newest run.
    ///   - classifier: decides the layer of each test.
    /// - Returns: the report; its ``PyramidReport/run`` is set when it covers a single run.
    /// - Throws: ``StoreError/noSuchRun(_:)`` when nothing matches; any SQLite error.
    public func pyramidReport(
        project: String?, run: String?, since: Double?, classifier: LayerClassifier
    ) throws -> PyramidReport {
        try reading { try $0.pyramidReport(project: project, run: run, since: since, classifier: classifier) }
    }

    /// Flaky, broken and recovered tests and judged predicates over a window of runs.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - runs: how many of the newest runs make the window.
    ///   - since: seconds since 1970; only runs started since then.
    ///   - thresholds: the thresholds of every verdict.
    ///   - now: the time "recovered" is measured against, in seconds since 1970.
    ///   - before: when given, only the runs before this one make the window.
    /// - Returns: the report; an empty one when there is no project or no run.
    /// - Throws: any SQLite error.
    public func flakyReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double,
        before: WindowRun? = nil
    ) throws -> FlakyReport {
        try reading {
            try $0.flakyReport(
                project: project, runs: count, since: since, thresholds: thresholds, now: now, before: before)
        }
    }

    /// `report slow`: each test's durations over a window of runs against the window before it.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window (and the window before).
    ///   - since: when given, the window is the runs since then, and the window before as many runs
    ///     before them.
    ///   - thresholds: which runs are noise.
    ///   - criteria: what counts as a slowdown.
    ///   - limit: at most this many slowest tests.
    /// - Throws: any SQLite error.
    public func slowReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds,
        criteria: SlowReport.Criteria, limit: Int
    ) throws -> SlowReport {
        try reading {
            try $0.slowReport(
                project: project, runs: count, since: since, thresholds: thresholds, criteria: criteria, limit: limit)
        }
    }

    /// `report failures`: the failing attempts of the window's runs, grouped by cause.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - including: which tests' failures count, by test id; all by default.
    /// - Returns: the groups, the largest first; none for an empty store.
    /// - Throws: any SQLite error.
    public func failureGroups(
        project: String?, runs count: Int, since: Double?, including: (String) -> Bool = { _ in true }
    ) throws -> [FailureGroup] {
        try reading { try $0.failureGroups(project: project, runs: count, since: since, including: including) }
    }

    /// `report run`: the failures of a run classified against the base branch's earlier runs, the
    /// flaky report and the quarantine.
    /// - Parameters:
    ///   - run: the run's id; the newest run of `project` (or of the store) when `nil`.
    ///   - project: the project, when `run` is not given.
    ///   - base: the base branch.
    ///   - window: the flaky report's window, in runs.
    ///   - thresholds: the flaky report's thresholds.
    ///   - now: the time the flaky report and the quarantine are judged at.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any SQLite error.
    public func runReport(
        run: String?, project: String?, base: String, window: Int, thresholds: FlakyThresholds, now: Double
    ) throws -> RunReport {
        try reading {
            try $0.runReport(
                run: run, project: project, base: base, window: window, thresholds: thresholds, now: now)
        }
    }

    /// The predicate evaluations in the given runs, grouped by call site, sorted by test and name.
    /// - Throws: any SQLite error.
    public func predicateSites(runs: [WindowRun]) throws -> [PredicateSite] {
        try reading { try $0.predicateSites(runs: runs) }
    }
}
