import Foundation
import LedgerCore

/// How ``ResultStore/afterRunsStored(_:policy:now:)`` follows fixes onto the default branch.
public struct FixLanding: Hashable, Sendable {
    /// The default branch; `nil` for the checkout's `origin/HEAD`, else `main`.
    public var branch: String?
    /// The clean runs that release a fix that landed; `nil` keeps each fix's own (as many as rule
    /// out its rate before).
    public var runs: Int?
    /// The checkout whose git says whether a run's revision descends from a fix's; `nil` takes a
    /// fix as landed only on its own revision.
    public var checkout: String?

    /// Creates the landing rule.
    /// - Parameters:
    ///   - branch: the default branch, when configured.
    ///   - runs: the clean runs that release a fix, when configured.
    ///   - checkout: the checkout git answers in, when there is one.
    public init(branch: String? = nil, runs: Int? = nil, checkout: String? = nil) {
        (self.branch, self.runs, self.checkout) = (branch, runs, checkout)
    }

    /// The default branch's name.
    public var defaultBranch: String { branch ?? checkout.flatMap(GitAncestry.defaultBranch(in:)) ?? "main" }
}

extension ResultStore {
    /// Follows `run`'s project's fixes through it when it is a run of the default branch (a
    /// verification's run is not): a pending fix lands on its revision or a descendant, a landed
    /// one counts a clean run or regresses on a failure, and one that held for its runs is released
    /// from the quarantine, the audit log keeping the fix as evidence.
    ///
    /// - Parameters:
    ///   - run: the stored run's id.
    ///   - landing: the default branch and the checkout.
    ///   - now: when, in seconds since 1970.
    /// - Returns: the fixes whose state or count changed, and the quarantine's releases.
    /// - Throws: any database error.
    func followFixes(after run: String, landing: FixLanding, now: Double) throws -> (
        fixes: [RecordedFix], releases: [QuarantineChange]
    ) {
        guard let stored = try windowRun(id: run) else { return ([], []) }
        let followed = try fixes(project: stored.project).filter { $0.state != .regressed }
        guard !followed.isEmpty, let listing = try self.run(id: run), listing.kind == nil,
            listing.branch == landing.defaultBranch
        else { return ([], []) }
        let branchRun = RecordedFix.BranchRun(
            run: run, revision: stored.revision, at: stored.startedAt, failed: Set(try failingTests(run: run)),
            passed: Set(try passedTests(run: run)))
        let changed = followed.map { followedFix in
            var fix = followedFix
            if let runs = landing.runs, fix.state != .released { fix.runsToRelease = runs }
            return fix.advanced(by: branchRun) { ancestor in
                let carried = listing.labels?[RecordedFix.carriedLabel]?.split(separator: " ") ?? []
                if carried.contains(Substring(ancestor)) { return true }
                guard let checkout = landing.checkout, let revision = stored.revision else { return false }
                return GitAncestry.descends(revision, from: ancestor, in: checkout)
            }
        }.filter { !followed.contains($0) }
        try updateFixes(changed)
        var releases: [QuarantineChange] = []
        for fix in changed where fix.state == .released {
            for entry in try quarantined(project: fix.project, at: now) where entry.test == fix.test {
                releases += try release(
                    [fix.test], project: fix.project, configuration: entry.configuration,
                    reason: "fix \(fix.revision.prefix(8)) held for \(fix.cleanRuns) clean runs on "
                        + "\(listing.branch ?? "the default branch")",
                    by: "testledger", at: now, automatic: true, evidence: [fix.test: try StoredFix.body(of: fix)])
            }
        }
        return (changed, releases)
    }
}
