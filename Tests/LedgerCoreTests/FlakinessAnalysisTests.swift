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
        ("FFFFFFFFFP", "broken"),  // ≥ 80 % failing
        ("PPPPPPPFFF", "broken"),  // the last 3 failed in a row
        ("PPPPPPPFFR", "flaky"),  // the streak is broken by a retry pass
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

    @Test func recoversAfterFivePassesAndAWeek() {
        let letters = "PFPFPPPPPP"  // the last flip is the pass of day 4, five passes follow
        #expect(verdict(history(letters), now: 9 * day + 1) == "flaky")
        #expect(verdict(history(letters), now: 4 * day + 7 * day + 1) == "recovered")
        #expect(verdict(history("PFPFPPPP"), now: 100 * day) == "flaky", "three passes are too few")
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
