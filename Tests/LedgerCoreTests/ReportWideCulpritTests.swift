import LedgerTestSupport
import Testing

@testable import LedgerCore

/// Suspects across a report of many tests (`report flaky`): tests that fail at random get next
/// to none, while the planted causes of the serial and parallel histories keep their place.
struct ReportWideCulpritTests {
    /// 10,000 tests over 100 runs, 1 % of them failing at random 20 % of the time with durations
    /// drawn apart from the outcomes: the attempts of the tests that ever fail, by test. The
    /// generator decides each outcome by its own draws.
    static func randomHistory(seed: UInt64) -> [String: [AttemptEvidence]] {
        var numbers = SeededNumbers(seed: seed)
        let (tests, runs) = (10_000, 100)
        let random = stride(from: 0, to: tests, by: 100).map { "ShopTests.RandomTests/test\($0)" }
        var attempts: [String: [AttemptEvidence]] = [:]
        for run in 0..<runs {
            let failing = Set(random.filter { _ in numbers.chance(0.2) })
            for (index, test) in random.enumerated() {
                let duration = 0.05 + Double(numbers.below(1_000)) / 1_000
                var attempt = AttemptEvidence(
                    run: "run-\(run)", attempt: 1, outcome: failing.contains(test) ? .failed : .passed,
                    startedAt: 1_790_000_000 + Double(run) * 3_600 + Double(index), duration: duration)
                attempt.failedBeside = failing.subtracting([test])
                attempts[test, default: []].append(attempt)
            }
        }
        return attempts.filter { $0.value.contains { $0.outcome == .failed } }
    }

    /// Each test's brief, as `report flaky` makes it before the report-wide control.
    static func briefs(_ attempts: [String: [AttemptEvidence]], runs: Int) -> [String: CulpritReport.Brief] {
        attempts.mapValues { CulpritAnalysis.brief(test: "", configuration: "*", attempts: $0, runs: runs) }
            .reduce(into: [:]) { $0[$1.key] = $1.value }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64]) func testsFailingAtRandomGetNoSuspectOnce(seed: UInt64) {
        let history = Self.randomHistory(seed: seed)
        let briefs = Self.briefs(history, runs: 100)
        let alone = briefs.values.count { $0.suspect != nil }
        let controlled = CulpritAnalysis.controllingFalseDiscoveries(briefs)
        let named = controlled.filter { $0.value.suspect != nil }.map {
            "\($0.key): \($0.value.suspect?.evidence ?? "")"
        }
        #expect(history.count == 100)
        // Judged one test at a time, about 5 in 100 get a suspect by chance.
        #expect(
            Double(named.count) <= 0.01 * Double(history.count),
            "\(named.count) of \(history.count) named (\(alone) judged alone): \(named.joined(separator: "; "))")
        #expect(controlled.values.allSatisfy { $0.suspect != nil || $0.verdict != .suspects })
    }

    @Test func thePlantedCausesOfSerialHistoriesStayFirst() {
        var (named, planted) = (0, 0)
        var missed: [String] = []
        for seed in [21, 22, 23] as [UInt64] {
            let history = PlantedCulprits(seed: seed, runs: 50, variants: 4)
            let briefs = CulpritAnalysis.controllingFalseDiscoveries(
                Self.briefs(history.attempts, runs: history.runIDs.count))
            for (test, kind) in history.tests {
                guard case .cause(let cause) = kind else { continue }
                planted += 1
                let expected = PlantedCulprits.expected(cause, precededBy: history.partners[test] ?? "")
                let suspect = briefs[test]?.suspect
                if suspect?.kind == expected.0, suspect?.name == expected.1 {
                    named += 1
                } else {
                    missed.append("\(seed) \(test): \(cause) → \(suspect.map { "\($0.kind) \($0.name)" } ?? "none")")
                }
            }
        }
        #expect(planted == 120)
        #expect(Double(named) >= 0.9 * Double(planted), "\(named) of \(planted): \(missed.joined(separator: "\n"))")
    }

    @Test func thePlantedCausesOfParallelHistoriesStayFirst() {
        var (named, planted) = (0, 0)
        var missed: [String] = []
        for seed in UInt64(1)...16 {
            let history = PlantedParallel(seed: seed)
            let briefs = CulpritAnalysis.controllingFalseDiscoveries(
                Self.briefs(history.attempts, runs: history.runInfo.count))
            for (test, cause) in history.tests {
                guard let cause, cause != .random else { continue }
                planted += 1
                if ParallelCulpritTests.isPlanted(briefs[test]?.suspect, test, history) {
                    named += 1
                } else {
                    missed.append("\(seed) \(test): \(cause) → \(briefs[test]?.suspect?.name ?? "none")")
                }
            }
        }
        #expect(Double(named) >= 0.9 * Double(planted), "\(named) of \(planted): \(missed.joined(separator: "\n"))")
    }

    @Test func theProcedureKeepsTheSmallestChancesWithinTheirRank() {
        func brief(_ p: Double?) -> CulpritReport.Brief {
            var suspect: CulpritReport.Suspect?
            if let p {
                suspect = CulpritReport.Suspect(
                    kind: .duration, name: "duration", evidence: "", score: 0.5, failing: .init(count: 5, of: 5),
                    passing: .init(count: 0, of: 5), p: p, precision: 1, recall: 1)
            }
            return CulpritReport.Brief(
                verdict: p == nil ? .noSeparation : .suspects, failingAttempts: 5, passingAttempts: 5, suspect: suspect)
        }
        // Four judged: 0.01 ≤ 1/4 × 0.05 and 0.02 ≤ 2/4 × 0.05 are kept, 0.04 > 3/4 × 0.05 is not.
        var briefs = ["a": brief(0.01), "b": brief(0.02), "c": brief(0.04), "d": brief(nil)]
        briefs["e"] = CulpritReport.Brief(verdict: .tooFewFailures, failingAttempts: 1, passingAttempts: 9)
        let controlled = CulpritAnalysis.controllingFalseDiscoveries(briefs)
        #expect(controlled.filter { $0.value.suspect != nil }.keys.sorted() == ["a", "b"])
        #expect(controlled["c"]?.verdict == .noSeparation)
        #expect(controlled["e"] == briefs["e"] && controlled["d"] == briefs["d"])
        // Alone, a test keeps what it had: one judged test is its own family.
        #expect(CulpritAnalysis.controllingFalseDiscoveries(["c": brief(0.04)])["c"]?.suspect != nil)
    }
}
