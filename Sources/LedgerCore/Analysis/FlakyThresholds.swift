/// The thresholds behind every flaky verdict, with defaults that can be changed
/// from `.testledger.yml`.
public struct FlakyThresholds: Codable, Hashable, Sendable {
    /// Flip rate at or above which a test is flaky.
    public var flipRate = 0.2
    /// Share of failing runs at or above which a test is broken (given at least
    /// `brokenStreak` runs: one failing run is not yet evidence).
    public var brokenShare = 0.8
    /// Failing runs in a row (no pass on retry) that make a test broken.
    public var brokenStreak = 3
    /// The chance below which a quiet stretch is evidence of recovery: a flaky test has recovered
    /// when passing its newest runs in a row would happen less often than this at its earlier flake
    /// rate (see ``QuietStretch``).
    public var recoveryChance = 0.01
    /// Days since the last flaky run before a flaky test can have recovered (together with
    /// ``recoveryChance``); a fixed broken test needs none.
    public var recoveryDays = 7.0
    /// Share of failed tests above which a run is infrastructure noise.
    public var noiseShare = 0.8
    /// Runs with fewer tests than this are never called noise.
    public var noiseMinimumTests = 5
    /// Weight of each older run against the next newer one in the score.
    public var decay = 0.9
    /// Margin (waited ÷ timeout) at the 95th percentile at or above which a predicate that never
    /// timed out is at risk.
    public var atRiskP95 = 0.8
    /// Largest margin (waited ÷ timeout) at or above which a predicate that never timed out is at risk.
    public var atRiskMax = 0.9
    /// Evaluations needed before a predicate can be at risk.
    public var atRiskEvaluations = 10
    /// Share of timed-out evaluations at or above which a predicate is broken.
    public var predicateBrokenShare = 0.8

    /// Creates thresholds with every default value.
    public init() {}
}
