import Foundation

/// Judges tests' histories as flaky, broken or recovered: pure.
public enum FlakinessAnalysis {
    /// The verdict on one history.
    public enum Verdict: Equatable {
        /// Nothing unstable in the history, or no run in which the test was not skipped.
        case stable
        /// Flaky: passed on retry, passed and failed on one revision, or flips often enough.
        case flaky(FlakyReport.FlakyTest)
        /// Broken: fails in most runs, or in the newest runs in a row.
        case broken(FlakyReport.BrokenTest)
        /// Flaked or was broken, but its newest quiet stretch is evidence that it no longer does.
        case recovered(FlakyReport.RecoveredTest)
    }

    /// Judges one test's history (noise runs already removed), as of `now`.
    ///
    /// Runs whose final outcome was a skip are ignored. Broken is decided before flaky; a history
    /// that would be either is recovered instead when its newest quiet stretch is evidence enough
    /// (``QuietStretch/hasRecovered(now:thresholds:)``).
    ///
    /// - Parameters:
    ///   - history: the test's runs, oldest first.
    ///   - now: the time to judge recovery against, in seconds since 1970.
    ///   - thresholds: the thresholds of every verdict.
    /// - Returns: the verdict, carrying the evidence when flaky or broken.
    public static func judge(_ history: TestHistory, now: Double, thresholds: FlakyThresholds)
        -> Verdict
    {
        let samples = history.samples.filter { $0.final != .skipped }
        let quiet = QuietStretch(samples)
        if quiet.hasRecovered(now: now, thresholds: thresholds) {
            // Recovered from what it was before the quiet stretch: a test that was stable then too
            // has nothing to recover from.
            switch judgeAsItIs(history, Array(samples.dropLast(quiet.runs)), thresholds: thresholds) {
            case .flaky, .broken:
                return .recovered(
                    FlakyReport.RecoveredTest(
                        test: history.test, configuration: history.configuration, runs: samples.count,
                        quietRuns: quiet.runs, earlierRate: quiet.earlierRate, quietChance: quiet.chance,
                        lastFlake: quiet.lastFlakeAt.map(iso8601), strip: strip(samples)))
            case .stable, .recovered: break
            }
        }
        return judgeAsItIs(history, samples, thresholds: thresholds)
    }

    /// The verdict on `samples` (no skips) without asking whether the test has recovered.
    static func judgeAsItIs(_ history: TestHistory, _ samples: [RunSample], thresholds: FlakyThresholds) -> Verdict {
        guard !samples.isEmpty else { return .stable }
        let failures = samples.filter { $0.final.isFailure }.count
        var streak = 0
        for sample in samples.reversed() {
            guard sample.final.isFailure, !sample.anyAttemptPassed else { break }
            streak += 1
        }
        let failureRate = Double(failures) / Double(samples.count)
        let enoughRuns = samples.count >= thresholds.brokenStreak
        let quiet = QuietStretch(samples)
        // A failing streak is a breakage only when it would be improbable at the failure rate
        // before it: a test failing a quarter of its runs fails 3 in a row 1.6 % of the time.
        let earlierRuns = samples.count - streak
        let earlierRate = earlierRuns > 0 ? Double(failures - streak) / Double(earlierRuns) : 0
        let streakIsEvidence =
            streak >= thresholds.brokenStreak && pow(earlierRate, Double(streak)) < thresholds.recoveryChance
        if (enoughRuns && failureRate >= thresholds.brokenShare) || streakIsEvidence {
            return .broken(
                .init(
                    test: history.test, configuration: history.configuration, runs: samples.count,
                    failures: failures, failureRate: failureRate, failingStreak: streak,
                    strip: strip(samples)))
        }

        var flipped = [Bool](repeating: false, count: samples.count)
        for index in samples.indices.dropFirst() {
            flipped[index] = samples[index].final.isFailure != samples[index - 1].final.isFailure
        }
        let flips = flipped.filter { $0 }.count
        let flipRate = samples.count > 1 ? Double(flips) / Double(samples.count - 1) : 0
        let retriedPasses = samples.filter(\.flakyInRun).count
        let revisionsWithBoth = Self.revisionsWithBoth(samples)
        guard revisionsWithBoth > 0 || flipRate >= thresholds.flipRate || retriedPasses > 0 else {
            return .stable
        }

        let unstable = samples.indices.map { flipped[$0] || samples[$0].flakyInRun }
        let lastFlake = unstable.lastIndex(of: true).map { samples[$0].at }
        var weighted = 0.0
        var weights = 0.0
        for (age, index) in samples.indices.reversed().enumerated() {
            let weight = pow(thresholds.decay, Double(age))
            weights += weight
            if unstable[index] { weighted += weight }
        }
        let probability = (Double(failures) + 1) / (Double(samples.count) + 2)
        return .flaky(
            .init(
                test: history.test, configuration: history.configuration,
                score: weights > 0 ? weighted / weights : 0, runs: samples.count,
                failures: failures, retriedPasses: retriedPasses, flipRate: flipRate,
                revisionsWithBoth: revisionsWithBoth, lastFlake: lastFlake.map(iso8601),
                failureProbability: probability,
                uncertainty: (probability * (1 - probability) / (Double(samples.count) + 2))
                    .squareRoot(),
                quietRuns: quiet.runs, earlierRate: quiet.earlierRate, quietChance: quiet.chance,
                quietRunsNeeded: quiet.runsNeeded(chance: thresholds.recoveryChance), strip: strip(samples)))
    }

    /// The run outcomes oldest first, one letter each: P passed, F failed, R passed on retry.
    static func strip(_ samples: [RunSample]) -> String {
        String(samples.map { $0.flakyInRun ? "R" : $0.final.isFailure ? "F" : "P" })
    }

    /// Revisions (runs, where the revision is unknown) on which the test both passed and failed.
    static func revisionsWithBoth(_ samples: [RunSample]) -> Int {
        enum Key: Hashable {
            case revision(String)
            case run(String)
        }
        var passed = Set<Key>()
        var failed = Set<Key>()
        for sample in samples {
            let key = sample.revision.map(Key.revision) ?? .run(sample.run)
            if sample.anyAttemptPassed { passed.insert(key) }
            if sample.anyAttemptFailed { failed.insert(key) }
        }
        return failed.intersection(passed).count
    }

    /// The whole report: histories judged, noise runs named and left out, predicates judged.
    ///
    /// - Parameters:
    ///   - histories: every test's history in the window, oldest run first.
    ///   - health: one entry per run in the window; those that are noise are removed from the
    ///     histories and the predicate evaluations before judging.
    ///   - predicates: the predicate call sites with their evaluations in the window.
    ///   - now: the time to judge recovery against, in seconds since 1970.
    ///   - thresholds: the thresholds of every verdict.
    /// - Returns: the report, flaky tests ranked by score and broken tests by failure rate.
    public static func report(
        histories: [TestHistory], health: [RunHealth], predicates: [PredicateSite], now: Double,
        thresholds: FlakyThresholds = FlakyThresholds()
    ) -> FlakyReport {
        let noise = health.filter { $0.isNoise(thresholds) }
        let noiseIDs = Set(noise.map(\.run))
        var flaky: [FlakyReport.FlakyTest] = []
        var broken: [FlakyReport.BrokenTest] = []
        var recovered: [FlakyReport.RecoveredTest] = []
        for var history in histories {
            history.samples.removeAll { noiseIDs.contains($0.run) }
            switch judge(history, now: now, thresholds: thresholds) {
            case .stable: break
            case .flaky(let test): flaky.append(test)
            case .broken(let test): broken.append(test)
            case .recovered(let test): recovered.append(test)
            }
        }
        flaky.sort {
            ($0.score, $0.failures, $1.test, $1.configuration) > ($1.score, $1.failures, $0.test, $0.configuration)
        }
        broken.sort {
            ($0.failureRate, $1.test, $1.configuration) > ($1.failureRate, $0.test, $0.configuration)
        }
        let sites = predicates.map { site in
            var site = site
            site.evaluations.removeAll { noiseIDs.contains($0.run) }
            return site
        }
        return FlakyReport(
            runs: health.count, flaky: flaky, broken: broken,
            recovered: recovered.sorted { ($0.test, $0.configuration) < ($1.test, $1.configuration) },
            predicates: PredicateAnalysis.findings(sites, thresholds: thresholds),
            noiseRuns: noise.map {
                .init(run: $0.run, startedAt: iso8601($0.at), tests: $0.tests, failed: $0.failed)
            })
    }
}
