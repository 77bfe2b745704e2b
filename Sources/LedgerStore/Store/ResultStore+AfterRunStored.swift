import Foundation
import LedgerCore

/// What is done after a run is stored, beyond what the caller knows: the automatic quarantine and
/// the checkout's ownership, which only a command run in a checkout can read, and the quarantine
/// list, when it comes from elsewhere than the store.
///
/// `ingest`, `record`, the library storing its journal and the server's uploads each hand
/// theirs to ``ResultStore/afterRunsStored(_:policy:now:)``; what one of them does not know is
/// left out, and that part is not done.
public struct RunStoredPolicy: Hashable, Sendable {
    /// The automatic quarantine to apply to each stored run's project; `nil` leaves the quarantine
    /// as it is.
    public var automaticQuarantine: AutomaticQuarantine?
    /// The checkout's ownership, kept for each stored run's project; `nil` or an empty one keeps
    /// what the ledger holds.
    public var ownership: Ownership?
    /// The quarantine in force when it comes from elsewhere than the store (a team server's list);
    /// `nil` reads the store's.
    public var quarantine: [QuarantinedTest]?
    /// How fixes `verify` recorded are followed onto the default branch; `nil` leaves them as they are.
    public var fixLanding: FixLanding?

    /// Creates a policy; what is left out is not done.
    ///
    /// - Parameters:
    ///   - automaticQuarantine: the automatic quarantine and what it judges by.
    ///   - ownership: the checkout's ownership.
    ///   - quarantine: the quarantine in force; the store's when `nil`.
    ///   - fixLanding: the default branch fixes land on.
    public init(
        automaticQuarantine: AutomaticQuarantine? = nil, ownership: Ownership? = nil,
        quarantine: [QuarantinedTest]? = nil, fixLanding: FixLanding? = nil
    ) {
        self.automaticQuarantine = automaticQuarantine
        self.ownership = ownership
        self.quarantine = quarantine
        self.fixLanding = fixLanding
    }

    /// The automatic quarantine's policy, with the window and thresholds it judges flakiness by.
    public struct AutomaticQuarantine: Hashable, Sendable {
        /// The policy; one that mutes nothing still releases the tests it muted once they earn it.
        public var policy: QuarantinePolicy
        /// How many of the project's newest runs are judged.
        public var window: Int
        /// The flaky thresholds; the policy sets the recovery ones.
        public var thresholds: FlakyThresholds

        /// Creates the automatic quarantine.
        ///
        /// - Parameters:
        ///   - policy: the policy.
        ///   - window: how many of the project's newest runs are judged.
        ///   - thresholds: the flaky thresholds.
        public init(
            _ policy: QuarantinePolicy, window: Int = ReportWindow.defaultRuns,
            thresholds: FlakyThresholds = FlakyThresholds()
        ) {
            self.policy = policy
            self.window = window
            self.thresholds = thresholds
        }
    }
}

/// What ``ResultStore/afterRunsStored(_:policy:now:)`` did.
public struct RunStoredChanges: Hashable, Sendable {
    /// Each stored run's muted tests (in quarantine as `mute` for its project and configuration),
    /// sorted, whose results in it are flagged; runs the store does not know are left out.
    public var muted: [String: [String]] = [:]
    /// The automatic quarantine's changes, in the order they were made.
    public var quarantine: [QuarantineChange] = []
    /// The projects whose kept ownership changed.
    public var ownership: [String] = []
    /// The fixes a default-branch run moved on: landed, counted, released or regressed.
    public var fixes: [RecordedFix] = []

    /// No changes.
    public init() {}
}

extension ResultStore {
    /// Does what follows storing runs: flags the results of tests muted for each run's project and
    /// configuration, then, for each of their projects, applies the automatic quarantine and keeps
    /// the checkout's ownership when `policy` has them.
    ///
    /// Runs the store does not know are passed over. Flagging reads the quarantine before the
    /// automatic policy changes it: a test muted because of a run does not excuse that run.
    ///
    /// - Parameters:
    ///   - runs: the ids of the runs stored.
    ///   - policy: what the caller knows beyond the store.
    ///   - now: when, in seconds since 1970: the quarantine in force then applies.
    /// - Returns: what changed.
    /// - Throws: any database error.
    @discardableResult
    public func afterRunsStored(
        _ runs: [String], policy: RunStoredPolicy = RunStoredPolicy(), now: Double = Date().timeIntervalSince1970
    ) throws -> RunStoredChanges {
        var changes = RunStoredChanges()
        var projects: [String] = []
        var inForce: [String: [QuarantinedTest]] = [:]
        for run in runs where changes.muted[run] == nil {
            guard let stored = try windowRun(id: run) else { continue }
            if inForce[stored.project] == nil {
                inForce[stored.project] =
                    try policy.quarantine?.filter { $0.project == stored.project && $0.isActive(at: now) }
                    ?? quarantined(project: stored.project, at: now)
            }
            let muted = Set(
                (inForce[stored.project] ?? []).filter { $0.mode == .mute && $0.applies(to: stored.configuration) }
                    .map(\.test)
            ).sorted()
            try markMuted(run: run, tests: muted)
            changes.muted[run] = muted
            if !projects.contains(stored.project) { projects.append(stored.project) }
            if let landing = policy.fixLanding {
                let followed = try followFixes(after: run, landing: landing, now: now)
                changes.fixes += followed.fixes
                changes.quarantine += followed.releases
            }
        }
        for project in projects {
            if let automatic = policy.automaticQuarantine {
                changes.quarantine += try applyQuarantinePolicy(
                    automatic.policy, project: project, window: automatic.window, thresholds: automatic.thresholds,
                    now: now)
            }
            if let ownership = policy.ownership, !ownership.isEmpty,
                try storeOwnership(ownership, project: project, at: now)
            {
                changes.ownership.append(project)
            }
        }
        return changes
    }
}
