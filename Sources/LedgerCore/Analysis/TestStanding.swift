/// Where one test stands, in a word a script or an agent can branch on: what `testledger status`
/// says and exits with.
///
/// Its JSON is a public contract: keys are only ever added.
public struct TestStanding: Codable, Hashable, Sendable {
    /// The word.
    public enum Standing: String, Codable, Sendable, CaseIterable {
        /// It ran in the window and is neither flaky nor broken, nor quarantined.
        case healthy
        /// `report flaky` calls it flaky in some configuration.
        case flaky
        /// `report flaky` calls it broken (it fails most of the time, or its newest runs in a row),
        /// or its newest run failed.
        case broken
        /// The quarantine holds it: its failures do not fail the build (or it is skipped).
        case quarantined
        /// It did not run in the window.
        case unknown
        /// A fix was verified on a revision that has not run on the default branch yet.
        case fixPending = "fix-pending"
        /// Its fix runs on the default branch, not yet for the clean runs that release it.
        case fixLanded = "fix-landed"
        /// It failed on the default branch after its fix landed.
        case regressed

        /// The exit status that says it: 0 healthy, 10 flaky, 11 broken, 12 quarantined, 13 unknown,
        /// 14 fix-pending, 15 fix-landed, 16 regressed (errors exit 1, and a mistyped command 64).
        public var exitStatus: Int32 {
            switch self {
            case .healthy: 0
            case .flaky: 10
            case .broken: 11
            case .quarantined: 12
            case .unknown: 13
            case .fixPending: 14
            case .fixLanded: 15
            case .regressed: 16
            }
        }

        /// How much it asks for attention: several tests' status exits with the highest's.
        var severity: Int {
            switch self {
            case .healthy: 0
            case .unknown: 1
            case .quarantined, .fixPending, .fixLanded: 2
            case .flaky: 3
            case .broken: 4
            case .regressed: 5
            }
        }
    }

    /// The test's stable id.
    public var test: String
    /// Where it stands.
    public var standing: Standing
    /// The configuration the standing is for; empty for all or none.
    public var configuration: String
    /// Its failing runs' share in that configuration; `nil` when it did not run.
    public var failureRate: Double?
    /// The window's runs it ran in, in that configuration.
    public var runs: Int
    /// How the quarantine holds it, when it does.
    public var quarantined: QuarantineMode?
    /// Why, in words.
    public var reason: String
    /// The test's newest fix `verify` recorded, while it is followed (pending, landed or regressed).
    public var fix: RecordedFix?

    /// What the window's runs of one test say, beside the flaky report's judgement.
    public struct Runs: Hashable, Sendable {
        /// The runs it ran in to an outcome (noise runs, skips and attempts still running aside).
        public var count: Int
        /// Of those, the runs whose last attempt failed.
        public var failed: Int
        /// Whether the newest of them failed.
        public var newestFailed: Bool

        /// Counts of a test's runs.
        public init(count: Int, failed: Int, newestFailed: Bool) {
            (self.count, self.failed, self.newestFailed) = (count, failed, newestFailed)
        }

        /// No run.
        public static let none = Runs(count: 0, failed: 0, newestFailed: false)
    }

    /// The standing of `test` from the window's flaky report, the quarantine in force and its runs.
    ///
    /// Broken before flaky, each in its worst configuration the quarantine does not cover; then
    /// quarantined; then, when it did not run, unknown. A test whose newest run failed, though
    /// neither flaky nor broken yet, is failing now: broken. The rest is healthy, recovered ones
    /// said so.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - report: the flaky report of the window.
    ///   - quarantine: the entries in force.
    ///   - runs: what the window's runs of the test say.
    ///   - fix: the test's newest fix, if any.
    /// - Returns: its standing.
    public static func of(
        _ test: String, report: FlakyReport, quarantine: [QuarantinedTest], runs: Runs, fix: RecordedFix? = nil
    ) -> TestStanding {
        var standing = judged(test, report: report, quarantine: quarantine, runs: runs)
        guard let fix, fix.state != .released else { return standing }
        standing.fix = fix
        let short = String(fix.revision.prefix(8))
        switch fix.state {
        case .pending:
            standing.standing = .fixPending
            standing.reason =
                "fix verified on \(short)\(fix.branch.map { " (\($0))" } ?? ""), not yet on the default branch"
        case .landed:
            standing.standing = .fixLanded
            standing.reason = "fix \(short) on the default branch: \(fix.cleanRuns) of \(fix.runsToRelease) clean runs"
        case .regressed, .released:
            standing.standing = .regressed
            let at = fix.regressedRevision.map { " on \($0.prefix(8))" } ?? ""
            standing.reason = "failed\(at) after fix \(short) landed"
        }
        return standing
    }

    private static func judged(_ test: String, report: FlakyReport, quarantine: [QuarantinedTest], runs: Runs)
        -> TestStanding
    {
        let entries = quarantine.filter { $0.test == test }
        let open = { (configuration: String) in !entries.contains { $0.applies(to: configuration) } }
        let broken = report.broken.filter { $0.test == test }.max { $0.failureRate < $1.failureRate }
        let flaky = report.flaky.filter { $0.test == test }.max { $0.failureProbability < $1.failureProbability }
        if let broken, open(broken.configuration) {
            let streak = broken.failingStreak > 0 ? ", the newest \(broken.failingStreak) in a row" : ""
            return TestStanding(
                test: test, standing: .broken, configuration: broken.configuration, failureRate: broken.failureRate,
                runs: broken.runs,
                reason: "failed \(broken.failures) of \(broken.runs) runs\(on(broken.configuration))\(streak)")
        }
        if let flaky, open(flaky.configuration) {
            return TestStanding(
                test: test, standing: .flaky, configuration: flaky.configuration,
                failureRate: flaky.failureProbability, runs: flaky.runs,
                reason: "failed \(flaky.failures) of \(flaky.runs) runs\(on(flaky.configuration)) and passed the others"
            )
        }
        let rate = runs.count > 0 ? Double(runs.failed) / Double(runs.count) : nil
        if let entry = entries.first {
            let configuration = entry.configuration == QuarantinedTest.everyConfiguration ? "" : entry.configuration
            return TestStanding(
                test: test, standing: .quarantined, configuration: configuration,
                failureRate: broken?.failureRate ?? flaky?.failureProbability ?? rate, runs: runs.count,
                quarantined: entry.mode, reason: "quarantined (\(entry.mode.rawValue)) by \(entry.by): \(entry.reason)")
        }
        guard let rate else {
            return TestStanding(
                test: test, standing: .unknown, configuration: "", failureRate: nil, runs: 0,
                reason: "did not run in the window")
        }
        if runs.newestFailed {
            return TestStanding(
                test: test, standing: .broken, configuration: "", failureRate: rate, runs: runs.count,
                reason: "failed its newest run (\(runs.failed) of \(runs.count) failed): failing now")
        }
        let reason =
            if let recovered = report.recovered.first(where: { $0.test == test }) {
                "recovered: \(recovered.quietRuns) quiet runs\(on(recovered.configuration)) since it last flaked"
            } else if runs.failed == 0 {
                "passed its \(runs.count) run(s)"
            } else {
                "failed \(runs.failed) of \(runs.count) runs, neither flaky nor broken"
            }
        return TestStanding(
            test: test, standing: .healthy, configuration: "", failureRate: rate, runs: runs.count, reason: reason)
    }

    /// The exit status of several tests' standings: the one that asks most attention.
    public static func exitStatus(of standings: [TestStanding]) -> Int32 {
        standings.map(\.standing).max { $0.severity < $1.severity }?.exitStatus ?? 0
    }

    private static func on(_ configuration: String) -> String {
        configuration.isEmpty ? "" : " on \(configuration)"
    }
}
