import LedgerCore

/// A ledger: what the CLI and the server read and write, whichever database holds it —
/// ``LedgerDatabase`` (one SQLite file) or `PostgresLedger` (a PostgreSQL database a team's
/// servers share). Both give the same answers for the same history.
///
/// Every method blocks the calling thread until the database answers. Access tokens and dashboard
/// sessions are a ``CredentialStore``'s, which both stores are too.
public protocol ResultStore: Sendable {
    /// Where the ledger is, for messages: a file's path, or a database URL without its password.
    var locationDescription: String { get }

    // MARK: Writing

    /// Runs `produce` inside one write transaction, storing every event it emits; nothing is
    /// stored unless `produce` returns.
    /// - Parameters:
    ///   - keepRunning: store attempts that have not ended as running instead of crashed.
    ///   - produce: emits the events into the sink it is given.
    /// - Returns: what the ingest stored.
    /// - Throws: what `produce` throws; any database error.
    @discardableResult
    func ingest(keepRunning: Bool, _ produce: (inout StoreSink) throws -> Void) throws -> IngestSummary
    /// Keeps `ownership` as the project's, unless it is what is kept already; returns whether it changed.
    @discardableResult
    func storeOwnership(_ ownership: Ownership, project: String, at time: Double) throws -> Bool
    /// Deletes runs that started before `cutoff`, and what hangs off them, in batches of about
    /// `batch` results; a quarantined test's results are kept.
    func prune(before cutoff: Double, project: String?, batch: Int, progress: (Int, Int) -> Void) throws
        -> PruneSummary

    // MARK: Runs and tests

    /// The newest runs first, optionally of one project; a negative `limit` means all.
    func runs(project: String?, limit: Int) throws -> [RunListing]
    /// One run by id, with its counts.
    func run(id: String) throws -> RunListing?
    /// The project of the run with that id, without its counts; `nil` when no run has it.
    func project(ofRun id: String) throws -> String?
    /// Every project with its runs and tests.
    func projects() throws -> [ProjectListing]
    /// One test's attempts, activities, captures, predicates and attachments in a run: those of
    /// its final attempt there, or of `attempt`.
    func testDetail(test: String, run: String?, project: String?, attempt: Int?) throws -> TestDetail
    /// Each test's attempts in each of the newest runs, oldest first.
    func outcomeStrips(project: String, tests: [String], runs count: Int, since: Double?) throws
        -> [String: [AttemptsInRun]]
    /// The newest `limit` runs of a project that have the test, newest first.
    func outcomeHistory(project: String, test: String, limit: Int) throws -> [AttemptsInRun]
    /// The ids of every test of `project`, sorted.
    func testIDs(project: String) throws -> [String]
    /// The owners of each test of `project`, from its kept ownership unless one is given.
    func testOwners(project: String, ownership: Ownership?) throws -> TestOwners
    /// The project's kept ownership.
    func ownership(project: String) throws -> Ownership?

    // MARK: Reports

    /// Runs `body` with what the reports read, inside one read transaction (one snapshot): the
    /// reports below are composed from it the same way for every store.
    func reading<Result>(_ body: (ReportSnapshot) throws -> Result) throws -> Result

    // MARK: Quarantine

    /// Puts tests in quarantine (or changes their entry), logging each change.
    @discardableResult
    func quarantine(_ entries: [QuarantinedTest], evidence: [String: String]) throws -> [QuarantineChange]
    /// Takes tests out of quarantine, logging each change.
    @discardableResult
    func release(
        _ tests: [String], project: String, configuration: String, reason: String, by: String, at: Double,
        automatic: Bool, evidence: [String: String]
    ) throws -> [QuarantineChange]
    /// The audit trail of `project`'s quarantine, oldest first.
    func quarantineLog(project: String) throws -> [QuarantineChange]
    /// Flags every result of `tests` in `run` as muted.
    func markMuted(run: String, tests: [String]) throws
    /// The tests of `run` whose final attempt failed, erred or crashed, sorted.
    func failingTests(run: String) throws -> [String]
    /// Each entry's runs and failures since it was quarantined, by test id.
    func resultsInQuarantine(_ entries: [QuarantinedTest]) throws -> [String: ResultsInQuarantine]

    // MARK: Fixes

    /// Keeps a fix `verify` proved; it is the test's followed fix from then on.
    /// - Returns: the fix with its id.
    @discardableResult
    func recordFix(_ fix: RecordedFix) throws -> RecordedFix
    /// Each test's newest fix in `project`, by test id.
    func fixes(project: String) throws -> [RecordedFix]
    /// Writes the fixes' new state and counts over their stored rows.
    func updateFixes(_ fixes: [RecordedFix]) throws
}

extension ResultStore {
    /// Applies the automatic quarantine to `project` after a run was stored: mutes the flaky tests
    /// the policy names and releases those that earned it, each change in the trail with its evidence.
    ///
    /// - Parameters:
    ///   - policy: the policy.
    ///   - project: the project.
    ///   - window: how many of the newest runs the judgement reads.
    ///   - thresholds: the flaky thresholds; the policy sets the recovery ones.
    ///   - now: when, in seconds since 1970.
    /// - Returns: the changes made.
    /// - Throws: any database error.
    public func applyQuarantinePolicy(
        _ policy: QuarantinePolicy, project: String, window: Int, thresholds: FlakyThresholds, now: Double
    ) throws -> [QuarantineChange] {
        let quarantine = try quarantined(project: project, at: now)
        guard policy.mutesFlakyTests || quarantine.contains(where: \.automatic) else { return [] }
        let report = try flakyReport(
            project: project, runs: window, since: nil, thresholds: policy.thresholds(thresholds), now: now,
            before: nil)
        let decided = policy.changes(report: report, quarantine: quarantine, project: project, now: now)
        var changes = try self.quarantine(decided.mute, evidence: decided.evidence)
        for release in decided.release {
            changes += try self.release(
                [release.test], project: project, configuration: release.configuration, reason: release.reason,
                by: QuarantinePolicy.actor, at: now, automatic: true, evidence: [release.test: release.evidence])
        }
        return changes
    }
}

extension ResultStore {
    /// Stores every event `produce` emits, in one transaction; attempts left open are crashed.
    @discardableResult
    public func ingest(_ produce: (inout StoreSink) throws -> Void) throws -> IngestSummary {
        try ingest(keepRunning: false, produce)
    }

    /// One test's detail in a run of any project.
    public func testDetail(test: String, run: String?) throws -> TestDetail {
        try testDetail(test: test, run: run, project: nil, attempt: nil)
    }

    /// One test's final attempt in a run.
    public func testDetail(test: String, run: String?, project: String?) throws -> TestDetail {
        try testDetail(test: test, run: run, project: project, attempt: nil)
    }

    /// The owners of each test of `project`, from its kept ownership.
    public func testOwners(project: String) throws -> TestOwners {
        try testOwners(project: project, ownership: nil)
    }

    /// Each test's attempts in each of the newest runs, oldest first.
    public func outcomeStrips(project: String, tests: [String], runs count: Int) throws -> [String: [AttemptsInRun]] {
        try outcomeStrips(project: project, tests: tests, runs: count, since: nil)
    }

    /// Deletes runs that started before `cutoff`, in batches of 5,000 results.
    public func prune(before cutoff: Double, project: String?, progress: (Int, Int) -> Void = { _, _ in }) throws
        -> PruneSummary
    {
        try prune(before: cutoff, project: project, batch: 5_000, progress: progress)
    }

    /// Puts tests in quarantine by hand.
    @discardableResult
    public func quarantine(_ entries: [QuarantinedTest]) throws -> [QuarantineChange] {
        try quarantine(entries, evidence: [:])
    }

    /// Takes tests out of quarantine by hand.
    @discardableResult
    public func release(
        _ tests: [String], project: String, configuration: String = QuarantinedTest.everyConfiguration,
        reason: String, by: String, at: Double
    ) throws -> [QuarantineChange] {
        try release(
            tests, project: project, configuration: configuration, reason: reason, by: by, at: at, automatic: false,
            evidence: [:])
    }
}

/// What one store's reports read, inside one read transaction: handed to ``ResultStore/reading(_:)``'s
/// body; only the reports themselves use it.
public struct ReportSnapshot {
    package let reader: any ReportReading

    package init(_ reader: any ReportReading) {
        self.reader = reader
    }
}

extension ResultStore {
    /// The newest `count` runs of a project (or those since `since`), newest first.
    /// - Parameters:
    ///   - project: the project whose runs to list.
    ///   - count: how many runs at most; `nil` (or a negative number) for all.
    ///   - since: only runs started at or after this time, in seconds since 1970; `nil` for no bound.
    /// - Returns: the runs, newest first, by start and then by row.
    /// - Throws: any database error.
    public func windowRuns(project: String, count: Int?, since: Double?) throws -> [WindowRun] {
        try reading { try $0.reader.windowRuns(project: project, count: count, since: since) }
    }

    /// The run with this id, of `project` when one is given; `nil` when none matches.
    public func windowRun(id: String, project: String? = nil) throws -> WindowRun? {
        try reading { try $0.reader.windowRun(id: id, project: project) }
    }

    /// The id of the newest run, of `project` when one is given.
    public func latestRunID(project: String? = nil) throws -> String? {
        try reading { try $0.reader.latestRunID(project: project) }
    }

    /// The project of the newest run: the default project of reports; `nil` for an empty store.
    public func latestProject() throws -> String? {
        try reading { try $0.reader.latestProject() }
    }

    /// The tests of `project` in quarantine at `time` (entries past their expiry left out).
    public func quarantined(project: String, at time: Double) throws -> [QuarantinedTest] {
        try reading { try $0.reader.quarantined(project: project, at: time) }
    }

    /// The pyramid of one run (the newest by default), or of every test seen since a time.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - run: a run id (of `project`, when one is given); wins over `since`.
    ///   - since: seconds since 1970; each test counts once, by its newest run.
    ///   - classifier: decides the layer of each test.
    /// - Returns: the report; its ``PyramidReport/run`` is set when it covers a single run.
    /// - Throws: ``StoreError/noSuchRun(_:)`` when nothing matches; any database error.
    public func pyramidReport(project: String?, run: String?, since: Double?, classifier: LayerClassifier) throws
        -> PyramidReport
    {
        try reading { try $0.reader.pyramidReport(project: project, run: run, since: since, classifier: classifier) }
    }

    /// Flaky, broken and recovered tests and judged predicates over a window of runs.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: seconds since 1970; only runs started since then.
    ///   - thresholds: the thresholds of every verdict.
    ///   - now: the time "recovered" is measured against, in seconds since 1970.
    ///   - before: when given, only the runs before this one make the window.
    /// - Returns: the report; an empty one when there is no project or no run.
    /// - Throws: any database error.
    public func flakyReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double,
        before: WindowRun? = nil
    ) throws -> FlakyReport {
        let report = try reading {
            try $0.reader.flakyReport(
                project: project, runs: count, since: since, thresholds: thresholds, now: now, before: before)
        }
        guard let project = try project ?? latestProject() else { return report }
        return report.following(try fixes(project: project))
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
    /// - Returns: the report; an empty one when there is no project.
    /// - Throws: any database error.
    public func slowReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds,
        criteria: SlowReport.Criteria, limit: Int
    ) throws -> SlowReport {
        try reading {
            try $0.reader.slowReport(
                project: project, runs: count, since: since, thresholds: thresholds, criteria: criteria, limit: limit)
        }
    }

    /// `shard plan`: each test's durations over the window's runs where it passed with no failed
    /// attempt, noise runs left out, without the tests quarantined as skipped at `now`, and
    /// without the runs of `revision` (the other shards of the same commit).
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs to read.
    ///   - since: when given, the runs since then instead.
    ///   - thresholds: which runs are noise.
    ///   - now: the moment whose quarantine applies.
    ///   - revision: the revision whose runs are left out.
    /// - Returns: each test's clean-pass durations, the tests skipped, each shard's fixed cost and the
    ///   runs read.
    /// - Throws: any database error.
    public func shardDurations(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double,
        excludingRevision revision: String? = nil
    ) throws -> ShardTimings {
        try reading {
            try $0.reader.shardDurations(
                project: project, runs: count, since: since, thresholds: thresholds, now: now,
                excludingRevision: revision)
        }
    }

    /// The tests `run` has a result for, sorted; none for a run not stored.
    public func testsStored(run: String) throws -> [String] {
        try reading { store in
            guard let stored = try store.reader.windowRun(id: run, project: nil) else { return [] }
            return try store.reader.finalResults(run: stored.row).map(\.test).sorted()
        }
    }

    /// The tests whose last attempt in the run passed, sorted; none for a run not stored.
    public func passedTests(run: String) throws -> [String] {
        try reading { store in
            guard let stored = try store.reader.windowRun(id: run, project: nil) else { return [] }
            return try store.reader.finalResults(run: stored.row).filter(\.outcome.isPass).map(\.test).sorted()
        }
    }

    /// `report failures`: the failing attempts of the window's runs, grouped by cause.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - including: which tests' failures count, by test id; all by default.
    /// - Returns: the groups, the largest first; none for an empty store.
    /// - Throws: any database error.
    public func failureGroups(
        project: String?, runs count: Int, since: Double?, including: (String) -> Bool = { _ in true }
    ) throws -> [FailureGroup] {
        try reading {
            try $0.reader.failureGroups(project: project, runs: count, since: since, including: including)
        }
    }

    /// `report failures --clusters`: the tests that fail in the same runs of the window, each
    /// cluster with what separates the runs it fails in.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - including: which tests count, by test id; all by default.
    /// - Returns: the clusters, the one failing in the most runs first; none for an empty store.
    /// - Throws: any database error.
    public func failureClusters(
        project: String?, runs count: Int, since: Double?, including: (String) -> Bool = { _ in true }
    ) throws -> [FailureCluster] {
        try reading {
            try $0.reader.failureClusters(project: project, runs: count, since: since, including: including)
        }
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
    /// - Returns: the run's report.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    public func runReport(
        run: String?, project: String?, base: String, window: Int, thresholds: FlakyThresholds, now: Double
    ) throws -> RunReport {
        let report = try reading {
            try $0.reader.runReport(
                run: run, project: project, base: base, window: window, thresholds: thresholds, now: now)
        }
        return report.following(try fixes(project: report.project))
    }

    /// Every attempt of a run, by test id and then attempt.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    public func attempts(run id: String) throws -> [RecordedAttempt] {
        try reading {
            guard let run = try $0.reader.windowRun(id: id, project: nil) else { throw StoreError.noSuchRun(id) }
            return try $0.reader.attempts(run: run.row)
        }
    }

    /// The steps of the attempts of `tests` in a run: what a timeline draws.
    /// - Parameters:
    ///   - id: the run's id.
    ///   - tests: the tests' stable ids.
    /// - Returns: each attempt's steps in the order they started, by test and then attempt number.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    public func steps(run id: String, tests: Set<String>) throws -> [String: [Int: [AttemptEvidence.Step]]] {
        try reading {
            guard let run = try $0.reader.windowRun(id: id, project: nil) else { throw StoreError.noSuchRun(id) }
            var activities: [String: [Int: [StoredActivity]]] = [:]
            for row in try $0.reader.activities(run: run.row, tests: tests.sorted()) {
                activities[row.test, default: [:]][row.attempt, default: []].append(row.activity)
            }
            return activities.mapValues { $0.mapValues { EvidenceRows.steps($0) } }
        }
    }

    /// `report culprit`: what separates a test's failing attempts from its passing ones.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - configuration: only runs of this configuration; every configuration when `nil`.
    /// - Returns: the report of the test's attempts in the window.
    /// - Throws: ``StoreError/noSuchTest(_:)`` when no run of the window has the test; any database
    ///   error.
    public func culpritReport(
        test: String, project: String?, runs count: Int, since: Double?, configuration: String? = nil
    ) throws -> CulpritReport {
        try reading {
            try $0.reader.culpritReport(
                test: test, project: project, runs: count, since: since, configuration: configuration)
        }
    }

    /// The culprit report of a test over the newest `count` runs of `project`, every
    /// configuration compared; `nil` when none of those runs has the test.
    public func culpritReportIfInWindow(test: String, project: String, runs count: Int) throws -> CulpritReport? {
        do {
            return try culpritReport(test: test, project: project, runs: count, since: nil)
        } catch StoreError.noSuchTest {
            return nil
        }
    }

    /// The flaky report with each flaky test's culprit (``FlakyReport/FlakyTest/culprit``) over the
    /// same window, in its configuration.
    public func withCulprits(_ report: FlakyReport, project: String?, runs count: Int, since: Double?) throws
        -> FlakyReport
    {
        try reading { try $0.reader.withCulprits(report, project: project, runs: count, since: since) }
    }

    /// The predicate evaluations in the given runs, grouped by call site, sorted by test and name.
    public func predicateSites(runs: [WindowRun]) throws -> [PredicateSite] {
        try reading { try $0.reader.predicateSites(runs: runs) }
    }
}

extension ResultStore {
    /// The tests of `run` the base branch never ran before it that passed, with their seconds.
    /// - Parameters:
    ///   - run: the run's id.
    ///   - known: the tests known before it (a team server's answer); the store's when `nil`.
    ///   - base: the base branch.
    /// - Returns: the new tests that passed with their seconds, those that failed, and what the run
    ///   was compared with.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    public func newTests(run: String, known: TestsKnownBefore? = nil, base: String) throws -> NewTests {
        try reading { try $0.reader.newTests(run: run, known: known, base: base) }
    }
}

extension ResultStore {
    /// `report cost`: the CI time the window's flaky tests cost.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: when given, every run since then instead.
    ///   - thresholds: which tests are flaky.
    ///   - now: the time the flaky report is judged at.
    /// - Returns: the report; an empty one when there is no project.
    /// - Throws: any database error.
    public func costReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double
    ) throws -> CostReport {
        try reading {
            try $0.reader.costReport(project: project, runs: count, since: since, thresholds: thresholds, now: now)
        }
    }
}

extension ResultStore {
    /// The tests the base branch ran before `run` (else the configuration's earlier runs did).
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    public func knownTests(run: String, base: String) throws -> TestsKnownBefore {
        try reading { try $0.reader.knownTests(run: run, base: base) }
    }

    /// The tests known before a run of `configuration` starting at `time` that this store does
    /// not hold: the base branch's runs before then, else the configuration's.
    public func knownTests(project: String, configuration: String, base: String, at time: Double) throws
        -> TestsKnownBefore
    {
        try reading {
            try $0.reader.knownTests(project: project, configuration: configuration, base: base, at: time)
        }
    }
}
