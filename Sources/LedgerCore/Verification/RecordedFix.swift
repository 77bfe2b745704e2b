/// A fix `verify` proved on a revision, followed until it lands on the default branch and holds
/// there: pending, then landed when that revision (or a descendant) runs on the default branch,
/// then released after enough clean runs there; a failure there after it landed makes it
/// regressed.
///
/// Its JSON is a public contract: keys are only ever added.
public struct RecordedFix: Codable, Hashable, Sendable {
    /// Where the fix is.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// Verified on its revision, which has not run on the default branch yet.
        case pending = "fix-pending"
        /// Its revision, or a descendant, ran on the default branch; its clean runs there are counted.
        case landed = "fix-landed"
        /// It held for the runs its landing needs, and left the quarantine.
        case released
        /// The test failed on the default branch after the fix landed.
        case regressed
    }

    /// What the verification showed.
    public struct Evidence: Codable, Hashable, Sendable {
        /// The verification's run.
        public var verificationRun: String
        /// Its runs of the test, all passed.
        public var runs: Int
        /// The failure rate ruled out: the ledger's, `--rate` or the target.
        public var failureRateBefore: Double
        /// The one-sided bound the clean runs showed the rate below.
        public var remainingRateBelow: Double
        /// The confidence of that bound.
        public var confidence: Double

        /// Creates the evidence from its parts.
        public init(
            verificationRun: String, runs: Int, failureRateBefore: Double, remainingRateBelow: Double,
            confidence: Double
        ) {
            self.verificationRun = verificationRun
            self.runs = runs
            self.failureRateBefore = failureRateBefore
            self.remainingRateBelow = remainingRateBelow
            self.confidence = confidence
        }
    }

    /// Its row in the ledger; `nil` before it is stored.
    public var id: Int64?
    /// The project.
    public var project: String
    /// The test's stable id.
    public var test: String
    /// The revision the fix was verified on.
    public var revision: String
    /// The branch it was verified on, when known.
    public var branch: String?
    /// When it was verified, in seconds since 1970.
    public var verifiedAt: Double
    /// What the verification showed.
    public var evidence: Evidence
    /// Where it is.
    public var state: State
    /// The default branch's revision it first ran in.
    public var landedRevision: String?
    /// When that run began.
    public var landedAt: Double?
    /// The default branch's runs since it landed in which the test passed.
    public var cleanRuns: Int
    /// The clean runs that release it.
    public var runsToRelease: Int
    /// The default branch's revision the test failed on after it landed.
    public var regressedRevision: String?
    /// The run it failed in.
    public var regressedRun: String?
    /// When its state last changed, in seconds since 1970.
    public var changedAt: Double

    /// The run label naming, space-separated, the fixes' revisions a run's revision descends from,
    /// for a ledger with no checkout to ask git: `record` sets it on a run of the default branch
    /// from its team server's pending fixes.
    public static let carriedLabel = "testledger.carries-fixes"

    /// A fix just verified: pending.
    ///
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - project: its project.
    ///   - revision: the revision it was verified on.
    ///   - branch: the branch, when known.
    ///   - at: when, in seconds since 1970.
    ///   - evidence: what the verification showed.
    ///   - runsToRelease: the clean default-branch runs that release it; `nil` for as many as the
    ///     verification needed to rule out the rate before (at its confidence).
    public init(
        test: String, project: String, revision: String, branch: String?, at: Double, evidence: Evidence,
        runsToRelease: Int? = nil
    ) {
        self.project = project
        self.test = test
        self.revision = revision
        self.branch = branch
        self.verifiedAt = at
        self.evidence = evidence
        self.state = .pending
        self.cleanRuns = 0
        self.runsToRelease = max(1, runsToRelease ?? Self.runsRuling(out: evidence))
        self.changedAt = at
    }

    /// The fix as a report marks its test with it.
    public struct Brief: Codable, Hashable, Sendable {
        /// Where it is.
        public var state: State
        /// The revision it was verified on.
        public var revision: String
        /// The branch it was verified on, when known.
        public var branch: String?
        /// The default branch's runs since it landed in which the test passed.
        public var cleanRuns: Int
        /// The clean runs that release it.
        public var runsToRelease: Int
        /// The default branch's revision the test failed on after it landed.
        public var regressedRevision: String?

        /// The brief of `fix`.
        public init(_ fix: RecordedFix) {
            (state, revision, branch) = (fix.state, fix.revision, fix.branch)
            (cleanRuns, runsToRelease, regressedRevision) = (fix.cleanRuns, fix.runsToRelease, fix.regressedRevision)
        }
    }

    /// What one default-branch run says of a fix.
    public struct BranchRun: Hashable, Sendable {
        /// The run's id.
        public var run: String
        /// Its revision, when known.
        public var revision: String?
        /// When it began, in seconds since 1970.
        public var at: Double
        /// The tests whose last attempt failed in it.
        public var failed: Set<String>
        /// The tests whose last attempt passed in it.
        public var passed: Set<String>

        /// Creates the run's facts.
        public init(run: String, revision: String?, at: Double, failed: Set<String>, passed: Set<String>) {
            (self.run, self.revision, self.at, self.failed, self.passed) = (run, revision, at, failed, passed)
        }
    }

    /// The fix after `run`, a run of the default branch: landed when `run` is on its revision or
    /// (`descends`) a descendant, then a clean run counted or a failure made a regression; a
    /// released fix still regresses. A regressed fix stays so until another is verified.
    ///
    /// - Parameters:
    ///   - run: the default branch's run.
    ///   - descends: whether the run's revision descends from the fix's; asked only while pending.
    /// - Returns: the fix, changed or not.
    public func advanced(by run: BranchRun, descends: (String) -> Bool) -> RecordedFix {
        var fix = self
        if fix.state == .pending {
            guard let revision = run.revision, revision == fix.revision || descends(fix.revision) else { return fix }
            (fix.state, fix.landedRevision, fix.landedAt, fix.changedAt) = (.landed, revision, run.at, run.at)
        }
        guard fix.state == .landed || fix.state == .released else { return fix }
        if run.failed.contains(test) {
            (fix.state, fix.regressedRevision, fix.regressedRun, fix.changedAt) = (
                .regressed, run.revision, run.run, run.at
            )
        } else if fix.state == .landed, run.passed.contains(test) {
            fix.cleanRuns += 1
            if fix.cleanRuns >= fix.runsToRelease { (fix.state, fix.changedAt) = (.released, run.at) }
        }
        return fix
    }

    /// The runs that rule out the rate before at the verification's confidence.
    private static func runsRuling(out evidence: Evidence) -> Int {
        let rate = min(max(evidence.failureRateBefore, 0.0001), 1)
        let confidence = min(max(evidence.confidence, 0.5), 0.9999)
        return VerificationPlan.runsNeeded(failureRate: rate, confidence: confidence)
    }
}
