import LedgerCore

/// A ledger: what the CLI and the server read and write, whichever database holds it —
/// ``LedgerDatabase`` (one SQLite file) or `PostgresLedger` (a PostgreSQL database a team's
/// servers share). Both give the same answers for the same history.
///
/// Every method blocks the calling thread until the database answers.
public protocol ResultStore: Sendable {
    /// Where the ledger is, for messages: a file's path, or a database URL without its password.
    var locationDescription: String { get }

    // MARK: Writing

    /// Runs `produce` inside one write transaction, storing every event it emits; nothing is
    /// stored unless `produce` returns.
    /// - Parameter keepRunning: store attempts that have not ended as running instead of crashed.
    @discardableResult
    func ingest(keepRunning: Bool, _ produce: (inout StoreSink) throws -> Void) throws -> IngestSummary
    /// Keeps `ownership` as the project's, unless it is what is kept already; returns whether it changed.
    @discardableResult
    func storeOwnership(_ ownership: Ownership, project: String, at time: Double) throws -> Bool
    /// Deletes runs that started before `cutoff`, and what hangs off them, in batches of about
    /// `batch` results; a quarantined test's results are kept.
    func prune(before cutoff: Double, project: String?, batch: Int, progress: (Int, Int) -> Void) throws
        -> PruneSummary

    // MARK: Tokens and sessions

    /// Stores a token's hash; returns its row.
    @discardableResult
    func addToken(project: String, scope: StoredToken.Scope, hash: String, prefix: String) throws -> Int64
    /// The live token with this hash.
    func token(hash: String) throws -> StoredToken?
    /// Every token, newest first.
    func tokens() throws -> [StoredToken]
    /// Whether any token is live.
    func hasLiveTokens() throws -> Bool
    /// Revokes the token with this row id or prefix; returns whether one was revoked.
    func revokeToken(_ idOrPrefix: String) throws -> Bool
    /// Starts a dashboard session for a token.
    func startSession(hash: String, token: Int64, at time: Double, lifetime: Double) throws
    /// The token of the live session with this hash.
    func sessionToken(hash: String, at time: Double) throws -> StoredToken?
    /// Ends the session with this hash; returns whether one was live.
    @discardableResult
    func endSession(hash: String, at time: Double) throws -> Bool

    // MARK: Runs and tests

    /// The newest runs first, optionally of one project; a negative `limit` means all.
    func runs(project: String?, limit: Int) throws -> [RunListing]
    /// One run by id, with its counts.
    func run(id: String) throws -> RunListing?
    /// The id of the newest run, optionally of one project.
    func latestRunID(project: String?) throws -> String?
    /// The project of the newest run.
    func latestProject() throws -> String?
    /// Every project with its runs and tests.
    func projects() throws -> [ProjectListing]
    /// The newest `count` runs of a project (or those since `since`), newest first.
    func windowRuns(project: String, count: Int?, since: Double?) throws -> [WindowRun]
    /// The run with this id, of `project` when one is given.
    func windowRun(id: String, project: String?) throws -> WindowRun?
    /// One test's attempts, activities, captures, predicates and attachments in a run.
    func testDetail(test: String, run: String?, project: String?) throws -> TestDetail
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

    /// The pyramid of one run (the newest by default), or of every test seen since a time.
    func pyramidReport(project: String?, run: String?, since: Double?, classifier: LayerClassifier) throws
        -> PyramidReport
    /// Flaky, broken and recovered tests and judged predicates over a window of runs.
    func flakyReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double,
        before: WindowRun?
    ) throws -> FlakyReport
    /// Each test's durations over a window of runs against the window before it.
    func slowReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds,
        criteria: SlowReport.Criteria, limit: Int
    ) throws -> SlowReport
    /// The failing attempts of the window's runs, grouped by cause.
    func failureGroups(project: String?, runs count: Int, since: Double?, including: (String) -> Bool) throws
        -> [FailureGroup]
    /// The failures of a run classified against the base branch's earlier runs.
    func runReport(
        run: String?, project: String?, base: String, window: Int, thresholds: FlakyThresholds, now: Double
    ) throws -> RunReport
    /// The predicate evaluations in the given runs, grouped by call site.
    func predicateSites(runs: [WindowRun]) throws -> [PredicateSite]

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
    /// The tests of `project` in quarantine at `time`.
    func quarantined(project: String, at time: Double) throws -> [QuarantinedTest]
    /// The audit trail of `project`'s quarantine, oldest first.
    func quarantineLog(project: String) throws -> [QuarantineChange]
    /// Flags every result of `tests` in `run` as muted.
    func markMuted(run: String, tests: [String]) throws
    /// The tests of `run` whose final attempt failed, erred or crashed, sorted.
    func failingTests(run: String) throws -> [String]
    /// Each entry's runs and failures since it was quarantined, by test id.
    func resultsInQuarantine(_ entries: [QuarantinedTest]) throws -> [String: ResultsInQuarantine]
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

    /// The flaky report over the newest `count` runs.
    public func flakyReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double
    ) throws -> FlakyReport {
        try flakyReport(project: project, runs: count, since: since, thresholds: thresholds, now: now, before: nil)
    }

    /// The failing attempts of the window's runs, grouped by cause.
    public func failureGroups(project: String?, runs count: Int, since: Double?) throws -> [FailureGroup] {
        try failureGroups(project: project, runs: count, since: since) { _ in true }
    }

    /// One test's detail in a run of any project.
    public func testDetail(test: String, run: String?) throws -> TestDetail {
        try testDetail(test: test, run: run, project: nil)
    }

    /// The run with this id, of any project.
    public func windowRun(id: String) throws -> WindowRun? {
        try windowRun(id: id, project: nil)
    }

    /// The id of the newest run of any project.
    public func latestRunID() throws -> String? {
        try latestRunID(project: nil)
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
