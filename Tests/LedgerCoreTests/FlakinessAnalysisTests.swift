import Foundation
import LedgerCore
import Testing

@Suite struct FlakinessAnalysisTests {
    let thresholds = FlakyThresholds()
    let day = 86_400.0

    /// A history from letters, oldest first: P pass, F fail, R fail then pass on retry, S skipped.
    func history(_ letters: String, revisions: [String?]? = nil, start: Double = 0) -> TestHistory {
        let samples = letters.enumerated().map { index, letter -> RunSample in
            let attempts: [Outcome] =
                switch letter {
                case "P": [.passed]
                case "F": [.failed]
                case "R": [.failed, .passed]
                case "E": [.error, .error]
                default: [.skipped]
                }
            return RunSample(
                run: "run\(index)", at: start + Double(index) * day, revision: revisions?[index], attempts: attempts)
        }
        return TestHistory(test: "M.S/t", samples: samples)
    }

    func verdict(_ history: TestHistory, now: Double? = nil) -> String {
        let now = now ?? (history.samples.last?.at ?? 0) + 1
        switch FlakinessAnalysis.judge(history, now: now, thresholds: thresholds) {
        case .stable: return "stable"
        case .flaky: return "flaky"
        case .broken: return "broken"
        case .recovered: return "recovered"
        }
    }

    @Test(arguments: [
        ("PPPPPPPPPP", "stable"),
        ("SSSS", "stable"),
        ("PPPPPPPPPPF", "stable"),  // one flip in ten: 0.1 < 0.2
        ("PPFPPFPPFP", "flaky"),
        ("PPPPR", "flaky"),  // a pass on retry is flaky in the run
        ("FFFFFFFFFF", "broken"),  // ≥ 80 % failing
        ("FFFFFFFFFP", "recovered"),  // broken, then fixed: every earlier run failed
        ("FFFFPFFFFFP", "broken"),  // one quiet run at a 90 % failure rate is 10 % by chance
        ("PPPPPPPFFF", "broken"),  // the last 3 failed in a row
        ("PPPPPPPFFR", "flaky"),  // the streak is broken by a retry pass
        ("PFPPFPPPFPPFFF", "flaky"),  // 3 in a row at an earlier rate of 3 in 11: 2 % by chance
        ("PPPPPPPPEE", "stable"),  // two errors at the end: one flip in nine, no streak of 3 yet
    ])
    func verdicts(_ letters: String, _ expected: String) {
        #expect(verdict(history(letters)) == expected)
    }

    @Test func passAndFailOnOneRevisionIsFlakyEvenWithALowFlipRate() {
        let revisions: [String?] = Array(repeating: "a", count: 9) + ["b", "b"]
        let flaky = history("PPPPPPPPPFP", revisions: revisions)
        guard case .flaky(let test) = FlakinessAnalysis.judge(flaky, now: 20 * day, thresholds: thresholds) else {
            Issue.record("expected flaky")
            return
        }
        #expect(test.revisionsWithBoth == 1)
        #expect(test.failures == 1)
        #expect(test.runs == 11)
        #expect(abs(test.flipRate - 0.2) < 1e-9)
        #expect(test.strip == "PPPPPPPPPFP")
    }

    /// `flakes` runs that flaked, spread evenly over `earlier` runs and ending with one, then
    /// `quiet` passes.
    func stretch(earlier: Int, flakes: Int, quiet: Int) -> String {
        let every = earlier / flakes
        let before = (1...earlier).map { $0 % every == 0 && $0 / every <= flakes ? "F" : "P" }.joined()
        return before + String(repeating: "P", count: quiet)
    }

    @Test func atAQuarterFlakeRateSeventeenQuietRunsAreEvidenceAndSixteenAreNot() throws {
        let sixteen = history(stretch(earlier: 20, flakes: 5, quiet: 16))
        guard case .flaky(let test) = FlakinessAnalysis.judge(sixteen, now: 100 * day, thresholds: thresholds) else {
            Issue.record("expected flaky")
            return
        }
        #expect(test.quietRuns == 16)
        #expect(test.earlierRate == 0.25)
        #expect(test.quietRunsNeeded == 17)
        #expect(abs(test.quietChance - pow(0.75, 16)) < 1e-12)
        #expect(test.quietChance > 0.01)

        let seventeen = history(stretch(earlier: 20, flakes: 5, quiet: 17))
        guard
            case .recovered(let recovered) = FlakinessAnalysis.judge(seventeen, now: 100 * day, thresholds: thresholds)
        else {
            Issue.record("expected recovered")
            return
        }
        #expect(recovered.quietRuns == 17)
        #expect(recovered.earlierRate == 0.25)
        #expect(recovered.quietChance < 0.01)
        #expect(recovered.runs == 37)
        #expect(recovered.lastFlake == iso8601(19 * day))
    }

    @Test func twoFailuresInFortyRunsNeedFarMoreThanEighteenQuietRuns() {
        #expect(stretch(earlier: 40, flakes: 2, quiet: 0).filter { $0 == "F" }.count == 2)
        // Three runs per revision: each failure shares its revision with passes, which is what makes it flaky.
        let threePerRevision = { (quiet: Int) in
            self.history(
                self.stretch(earlier: 40, flakes: 2, quiet: quiet), revisions: (0..<40 + quiet).map { "r\($0 / 3)" })
        }
        #expect(verdict(threePerRevision(18), now: 1_000 * day) == "flaky")
        #expect(QuietStretch(runs: 18, earlierRuns: 40, earlierFlakes: 2).runsNeeded(chance: 0.01) == 90)
        #expect(verdict(threePerRevision(89), now: 1_000 * day) == "flaky")
        #expect(verdict(threePerRevision(90), now: 1_000 * day) == "recovered")
    }

    @Test func aFlakyTestAlsoWaitsTheMinimumDaysButAFixedBrokenOneDoesNot() {
        let hourly = { (letters: String) in
            TestHistory(
                test: "M.S/t",
                samples: self.history(letters).samples.enumerated().map { index, sample in
                    var sample = sample
                    sample.at = Double(index) * 3_600
                    return sample
                })
        }
        let flaky = hourly(stretch(earlier: 20, flakes: 5, quiet: 17))
        let lastFlake = 19 * 3_600.0
        #expect(verdict(flaky, now: lastFlake + 7 * day - 1) == "flaky")
        #expect(verdict(flaky, now: lastFlake + 7 * day) == "recovered")
        #expect(verdict(hourly("FFFFFFP"), now: 6 * 3_600 + 1) == "recovered")
    }

    @Test func runsNeededAtTheEdges() {
        #expect(QuietStretch(runs: 0, earlierRuns: 0, earlierFlakes: 0).runsNeeded(chance: 0.01) == nil)
        #expect(QuietStretch(runs: 0, earlierRuns: 7, earlierFlakes: 7).runsNeeded(chance: 0.01) == 1)
        #expect(QuietStretch(runs: 0, earlierRuns: 4, earlierFlakes: 1).runsNeeded(chance: 0.01) == 17)
        // 0.5⁷ < 1 % < 0.5⁶, and 0.7⁹ < 5 % < 0.7⁸
        #expect(QuietStretch(runs: 0, earlierRuns: 2, earlierFlakes: 1).runsNeeded(chance: 0.01) == 7)
        #expect(QuietStretch(runs: 0, earlierRuns: 10, earlierFlakes: 3).runsNeeded(chance: 0.05) == 9)
    }

    @Test func aRetriedPassEndsTheQuietStretchAndCountsAsAFlake() {
        let stretch = QuietStretch(history("PPRPPFPPP").samples)
        #expect(stretch.runs == 3)
        #expect(stretch.earlierRuns == 6)
        #expect(stretch.earlierFlakes == 2)
        #expect(stretch.lastFlakeAt == 5 * day)
    }

    @Test func evidenceAndScore() {
        guard case .flaky(let test) = FlakinessAnalysis.judge(history("PRPFP"), now: 10 * day, thresholds: thresholds)
        else {
            Issue.record("expected flaky")
            return
        }
        #expect(test.retriedPasses == 1)
        #expect(test.failures == 1)
        #expect(abs(test.flipRate - 0.5) < 1e-9)  // P→F, F→P over 4 pairs
        // unstable runs (newest first): P after F flips, F flips, P, R, P; weights 0.9^age.
        let weights: [Double] = (0..<5).map { pow(0.9, Double($0)) }
        let total: Double = weights.reduce(0, +)
        let expected: Double = (weights[0] + weights[1] + weights[3]) / total
        #expect(abs(test.score - expected) < 1e-9)
        #expect(test.lastFlake != nil)
        #expect(abs(test.failureProbability - 2.0 / 7) < 1e-9)
    }

    @Test func noiseRunsAreNamedAndLeftOut() {
        let histories = (0..<10).map { index in
            TestHistory(
                test: "M.S/t\(index)",
                samples: [
                    RunSample(run: "good", at: 0, attempts: [.passed]),
                    RunSample(run: "outage", at: day, attempts: [index == 0 ? .passed : .failed]),
                    RunSample(run: "good2", at: 2 * day, attempts: [.passed]),
                ])
        }
        let health = [
            RunHealth(run: "good", at: 0, tests: 10, failed: 0),
            RunHealth(run: "outage", at: day, tests: 10, failed: 9),
            RunHealth(run: "good2", at: 2 * day, tests: 10, failed: 0),
        ]
        let report = FlakinessAnalysis.report(histories: histories, health: health, predicates: [], now: 3 * day)
        #expect(report.noiseRuns.map(\.run) == ["outage"])
        #expect(report.flaky.isEmpty)
        let withoutNoise = FlakinessAnalysis.report(
            histories: histories, health: health.map { RunHealth(run: $0.run, at: $0.at, tests: 3, failed: $0.failed) },
            predicates: [], now: 3 * day)
        #expect(withoutNoise.flaky.count == 9)
    }

    @Test func flakyTestsAreRankedByScore() {
        let mostly = TestHistory(test: "A/often", samples: history("PFPFPFPFPF").samples)
        let rarely = TestHistory(test: "B/rarely", samples: history("PPPPPPPPRP").samples)
        let report = FlakinessAnalysis.report(
            histories: [rarely, mostly], health: [], predicates: [], now: 20 * day)
        #expect(report.flaky.map(\.test) == ["A/often", "B/rarely"])
    }
}
