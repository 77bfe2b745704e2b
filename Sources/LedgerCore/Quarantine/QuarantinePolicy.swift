import Foundation

/// The automatic quarantine: flaky tests muted once the evidence is in, and released once a quiet
/// stretch has earned it. Broken tests are never muted: they stay visible.
///
/// ```yaml
/// quarantine:
///   auto: mute        # or off, the default
///   after: 10         # runs judged before a flaky test is muted
///   releaseDays: 14   # quiet days before release
///   releaseChance: 0.01
/// ```
public struct QuarantinePolicy: Hashable, Sendable {
    /// Whether flaky tests are muted automatically. Only muting is automatic: a skipped test
    /// leaves no results, so it could never earn its release.
    public var mutesFlakyTests = false
    /// Runs a flaky test must have been judged over before it is muted.
    public var afterRuns = 10
    /// Days since its last flaky run before an automatically muted test is released.
    public var releaseDays = 14.0
    /// The chance under which its quiet stretch must fall, at its earlier flake rate, to be released.
    public var releaseChance = 0.01

    /// Who the automatic changes are made by.
    public static let actor = "testledger"

    public init() {}

    /// The thresholds to judge a report by for this policy: recovery is release.
    public func thresholds(_ base: FlakyThresholds) -> FlakyThresholds {
        var thresholds = base
        thresholds.recoveryDays = releaseDays
        thresholds.recoveryChance = releaseChance
        return thresholds
    }

    /// A test to take out of quarantine, and why.
    public struct Release: Hashable, Sendable {
        public var test: String
        public var configuration: String
        public var reason: String
        /// What the release is based on (JSON).
        public var evidence: String
    }

    /// What the policy changes, given a report judged by ``thresholds(_:)`` and marked with the
    /// quarantine in force (``FlakyReport/marking(_:)``).
    ///
    /// - Parameters:
    ///   - report: the flaky report of `project`.
    ///   - quarantine: the entries in force.
    ///   - project: the project.
    ///   - now: when, in seconds since 1970.
    /// - Returns: the tests to mute, with the evidence by test id, and those to release.
    public func changes(
        report: FlakyReport, quarantine: [QuarantinedTest], project: String, now: Double
    ) -> (mute: [QuarantinedTest], evidence: [String: String], release: [Release]) {
        var mute: [QuarantinedTest] = []
        var evidence: [String: String] = [:]
        if mutesFlakyTests {
            for test in report.flaky where test.quarantined == nil && test.runs >= afterRuns {
                mute.append(
                    QuarantinedTest(
                        project: project, test: test.test, configuration: test.configuration, mode: .mute,
                        reason: "flaky: failed \(test.failures) of \(test.runs) runs, passed on retry in "
                            + "\(test.retriedPasses) (score \(Figures.decimal(test.score)))",
                        by: Self.actor, since: now, automatic: true))
                evidence[test.test] = Self.json([
                    "score": test.score, "runs": test.runs, "failures": test.failures,
                    "retriedPasses": test.retriedPasses, "flipRate": test.flipRate, "strip": test.strip,
                ])
            }
        }
        var release: [Release] = []
        for entry in quarantine where entry.automatic {
            if let recovered = report.recovered.first(where: {
                $0.test == entry.test && entry.applies(to: $0.configuration)
            }) {
                release.append(
                    Release(
                        test: entry.test, configuration: entry.configuration,
                        reason: "recovered: \(recovered.quietRuns) quiet runs, a chance of "
                            + "\(Figures.decimal(recovered.quietChance)) at its earlier rate "
                            + Figures.percent(recovered.earlierRate),
                        evidence: Self.json([
                            "quietRuns": recovered.quietRuns, "earlierRate": recovered.earlierRate,
                            "quietChance": recovered.quietChance, "strip": recovered.strip,
                        ])))
            } else if let broken = report.broken.first(where: {
                $0.test == entry.test && entry.applies(to: $0.configuration)
            }) {
                release.append(
                    Release(
                        test: entry.test, configuration: entry.configuration,
                        reason: "broken: failed \(broken.failures) of \(broken.runs) runs; a broken test stays visible",
                        evidence: Self.json([
                            "failures": broken.failures, "runs": broken.runs, "failingStreak": broken.failingStreak,
                            "strip": broken.strip,
                        ])))
            }
        }
        return (mute, evidence, release)
    }

    private static func json(_ fields: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
