import Foundation

/// A test's newest runs in a row that passed at the first attempt, weighed against how often it
/// flaked before them: the evidence that a flaky or broken test has recovered.
///
/// A quiet stretch of `k` runs at an earlier flake rate `p` happens by chance with probability
/// `(1 − p)^k`. It is evidence only when that is improbable: at `p = 0.25` it takes 17 quiet runs
/// to fall under 1 %, at 2 flakes in 40 runs 90. A test that failed every run before (`p = 1`) was
/// broken, and its first quiet run is the fix.
public struct QuietStretch: Hashable, Sendable {
    /// The newest runs in a row that passed with no failed attempt.
    public var runs: Int
    /// The runs before the stretch.
    public var earlierRuns: Int
    /// The runs before the stretch that failed or passed only on retry.
    public var earlierFlakes: Int
    /// When the newest flaky run (the one just before the stretch) started, in seconds since 1970;
    /// `nil` when no run flaked.
    public var lastFlakeAt: Double?

    /// Measures the stretch at the end of `samples`, oldest first, whose final outcomes are all
    /// passes or failures (skips and noise runs already left out).
    ///
    /// - Parameter samples: the test's runs, oldest first.
    public init(_ samples: [RunSample]) {
        let quiet = samples.reversed().prefix { $0.final.isPass && !$0.flakyInRun }.count
        let earlier = samples.dropLast(quiet)
        runs = quiet
        earlierRuns = earlier.count
        earlierFlakes = earlier.filter { $0.final.isFailure || $0.flakyInRun }.count
        lastFlakeAt = earlier.last?.at
    }

    /// Creates a stretch from its figures.
    ///
    /// - Parameters:
    ///   - runs: the quiet runs.
    ///   - earlierRuns: the runs before them.
    ///   - earlierFlakes: the runs before them that failed or passed only on retry.
    ///   - lastFlakeAt: when the newest flaky run started, in seconds since 1970.
    public init(runs: Int, earlierRuns: Int, earlierFlakes: Int, lastFlakeAt: Double? = nil) {
        self.runs = runs
        self.earlierRuns = earlierRuns
        self.earlierFlakes = earlierFlakes
        self.lastFlakeAt = lastFlakeAt
    }

    /// The share of runs before the stretch that failed or passed only on retry (0…1).
    public var earlierRate: Double { earlierRuns > 0 ? Double(earlierFlakes) / Double(earlierRuns) : 0 }

    /// The probability of a quiet stretch this long by chance at the earlier rate: `(1 − p)^k`.
    public var chance: Double { pow(1 - earlierRate, Double(runs)) }

    /// The fewest quiet runs whose chance at the earlier rate is under `chance`; `nil` when the
    /// test never flaked.
    ///
    /// - Parameter chance: the probability a stretch must fall under to count as evidence.
    /// - Returns: the runs needed, at least 1.
    public func runsNeeded(chance: Double) -> Int? {
        let rate = earlierRate
        guard rate > 0 else { return nil }
        guard rate < 1 else { return 1 }
        var needed = max(1, Int((log(chance) / log(1 - rate)).rounded(.up)))
        while pow(1 - rate, Double(needed)) >= chance { needed += 1 }
        while needed > 1, pow(1 - rate, Double(needed - 1)) < chance { needed -= 1 }
        return needed
    }

    /// Whether the test has recovered: the stretch would happen by chance less often than
    /// ``FlakyThresholds/recoveryChance``, and ``FlakyThresholds/recoveryDays`` have passed since the
    /// last flaky run. A broken test (every earlier run failed) needs no days: no wait adds
    /// evidence to a fix.
    ///
    /// - Parameters:
    ///   - now: the time to judge against, in seconds since 1970.
    ///   - thresholds: the chance and days that make the evidence.
    /// - Returns: `true` when the quiet stretch is evidence enough.
    public func hasRecovered(now: Double, thresholds: FlakyThresholds) -> Bool {
        guard runs > 0, earlierFlakes > 0, chance < thresholds.recoveryChance else { return false }
        return earlierFlakes == earlierRuns || now - (lastFlakeAt ?? now) >= thresholds.recoveryDays * 86_400
    }
}
