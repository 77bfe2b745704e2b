/// Where one test stands, in a word a script or an agent can branch on: what `testledger status`
/// says and exits with.
///
/// Its JSON is a public contract: keys are only ever added.
public struct TestStanding: Codable, Hashable, Sendable {
    /// The word.
    public enum Standing: String, Codable, Sendable, CaseIterable {
        /// It ran in the window and is neither flaky nor broken, nor quarantined.
        case healthy
        /// It both passed and failed in the window, in some configuration.
        case flaky
        /// It fails most of the time, or its newest runs all failed.
        case broken
        /// The quarantine holds it: its failures do not fail the build (or it is skipped).
        case quarantined
        /// It did not run in the window.
        case unknown

        /// The exit status that says it: 0 healthy, 10 flaky, 11 broken, 12 quarantined, 13 unknown
        /// (errors exit 1, and a mistyped command 64).
        public var exitStatus: Int32 {
            switch self {
            case .healthy: 0
            case .flaky: 10
            case .broken: 11
            case .quarantined: 12
            case .unknown: 13
            }
        }

        /// How much it asks for attention: several tests' status exits with the highest's.
        var severity: Int {
            switch self {
            case .healthy: 0
            case .unknown: 1
            case .quarantined: 2
            case .flaky: 3
            case .broken: 4
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

    /// The standing of `test` from the window's flaky report, the quarantine in force and the
    /// runs it ran in: quarantined before broken before flaky, each in its worst configuration.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - report: the flaky report of the window.
    ///   - quarantine: the entries in force.
    ///   - runs: the window's runs the test ran in.
    ///   - failedRuns: of those, the runs whose last attempt failed.
    /// - Returns: its standing.
    public static func of(
        _ test: String, report: FlakyReport, quarantine: [QuarantinedTest], runs: Int, failedRuns: Int = 0
    ) -> TestStanding {
        let broken = report.broken.filter { $0.test == test }.max { $0.failureRate < $1.failureRate }
        let flaky = report.flaky.filter { $0.test == test }.max { $0.failureProbability < $1.failureProbability }
        if let entry = quarantine.first(where: { $0.test == test }) {
            let configuration = entry.configuration == QuarantinedTest.everyConfiguration ? "" : entry.configuration
            return TestStanding(
                test: test, standing: .quarantined, configuration: configuration,
                failureRate: broken?.failureRate ?? flaky?.failureProbability, runs: runs, quarantined: entry.mode,
                reason: "quarantined (\(entry.mode.rawValue)) by \(entry.by): \(entry.reason)")
        }
        if let broken {
            return TestStanding(
                test: test, standing: .broken, configuration: broken.configuration, failureRate: broken.failureRate,
                runs: broken.runs,
                reason: "failed \(broken.failures) of \(broken.runs) runs\(on(broken.configuration)), "
                    + "the newest \(broken.failingStreak) in a row")
        }
        if let flaky {
            return TestStanding(
                test: test, standing: .flaky, configuration: flaky.configuration,
                failureRate: flaky.failureProbability, runs: flaky.runs,
                reason: "failed \(flaky.failures) of \(flaky.runs) runs\(on(flaky.configuration)) and passed the others"
            )
        }
        guard runs > 0 else {
            return TestStanding(
                test: test, standing: .unknown, configuration: "", failureRate: nil, runs: 0,
                reason: "did not run in the window")
        }
        // A test that failed and has passed ever since is recovered, not flaky.
        return TestStanding(
            test: test, standing: .healthy, configuration: "", failureRate: Double(failedRuns) / Double(runs),
            runs: runs, reason: "failed \(failedRuns) of \(runs) runs, neither flaky nor broken")
    }

    /// The exit status of several tests' standings: the one that asks most attention.
    public static func exitStatus(of standings: [TestStanding]) -> Int32 {
        standings.map(\.standing).max { $0.severity < $1.severity }?.exitStatus ?? 0
    }

    private static func on(_ configuration: String) -> String {
        configuration.isEmpty ? "" : " on \(configuration)"
    }
}
