import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Generated CI histories with planted kinds of tests, judged as `report flaky` judges them: one run
/// a day, three runs per revision.
@Suite struct PlantedHistoryTests {
    static let runs = 100
    static let day = 86_400.0

    /// Each kind's tests' histories, `perKind` of each.
    static func histories(seed: UInt64, perKind: Int = 14) -> [(PlantedKind, TestHistory)] {
        var numbers = SeededNumbers(seed: seed)
        return PlantedKind.allCases.flatMap { kind in
            (0..<perKind).map { index in
                let outcomes = kind.attempts(runs: runs, &numbers)
                let samples = outcomes.enumerated().map { run, attempts in
                    RunSample(run: "run\(run)", at: Double(run) * day, revision: "r\(run / 3)", attempts: attempts)
                }
                return (kind, TestHistory(test: "\(kind)/test\(index)", samples: samples))
            }
        }
    }

    static func judged(seed: UInt64) -> (missed: [String], wronglyFlaky: [String]) {
        let planted = histories(seed: seed)
        let report = FlakinessAnalysis.report(
            histories: planted.map(\.1), health: [], predicates: [], now: Double(runs) * day)
        let flaky = Set(report.flaky.map(\.test))
        let missed = planted.filter { $0.0.isFlaky && !flaky.contains($0.1.test) }.map(\.1.test)
        let wrong = planted.filter { !$0.0.isFlaky && flaky.contains($0.1.test) }.map(\.1.test)
        return (missed, wrong)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func nothingStableFixedOrBrokenIsCalledFlaky(seed: UInt64) {
        #expect(Self.judged(seed: seed).wronglyFlaky == [])
    }

    @Test func fixedTestsRecoverAndBrokenOnesStayBroken() {
        let planted = Self.histories(seed: 1)
        let report = FlakinessAnalysis.report(
            histories: planted.map(\.1), health: [], predicates: [], now: Double(Self.runs) * Self.day)
        let recovered = Set(report.recovered.map(\.test))
        let broken = Set(report.broken.map(\.test))
        for (kind, history) in planted {
            switch kind {
            case .fixed: #expect(recovered.contains(history.test))
            case .broken, .breaksLate: #expect(broken.contains(history.test))
            case .stable: #expect(!recovered.contains(history.test) && !broken.contains(history.test))
            default: break
            }
        }
    }

    /// Over many histories, a planted flaky test is seldom taken for recovered or broken: only when
    /// its quiet stretch or failing streak would be improbable at its own earlier rate. The rate is
    /// estimated from the runs before the stretch, which end with a flake, so rare tests are
    /// overestimated and go quiet "improbably" a little more often than the 1 % the rule aims at.
    @Test func flakyTestsAreSeldomMistaken() {
        var missed = 0
        var wrong = 0
        for seed in UInt64(100)..<200 {
            let judged = Self.judged(seed: seed)
            missed += judged.missed.count
            wrong += judged.wronglyFlaky.count
        }
        let flakyTests = 100 * 3 * 14
        #expect(Double(missed) / Double(flakyTests) < 0.02, "\(missed) of \(flakyTests) missed")
        #expect(wrong == 0)
    }
}
