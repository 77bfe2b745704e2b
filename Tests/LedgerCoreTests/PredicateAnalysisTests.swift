import LedgerCore
import Testing

@Suite struct PredicateAnalysisTests {
    func site(_ evaluations: [(held: Bool, waited: Double, attempts: Int)]) -> PredicateSite {
        site(.holds, evaluations)
    }

    func site(_ expect: PredicateExpectation, _ evaluations: [(held: Bool, waited: Double, attempts: Int)])
        -> PredicateSite
    {
        PredicateSite(
            test: "M.S/t", name: "spinner", expect: expect,
            evaluations: evaluations.enumerated().map { index, value in
                PredicateEvaluation(
                    run: "r\(index)", revision: "rev", held: value.held, attempts: value.attempts,
                    waited: value.waited, timeout: 1)
            })
    }

    func verdict(_ site: PredicateSite) -> PredicateFinding.Verdict? {
        PredicateAnalysis.judge(site, thresholds: FlakyThresholds())?.verdict
    }

    @Test func heldAndTimedOutOnOneRevisionIsFlaky() {
        let finding = PredicateAnalysis.judge(
            site([(true, 0.3, 30), (false, 1.0, 100), (true, 0.2, 20)]), thresholds: FlakyThresholds())
        #expect(finding?.verdict == .flaky)
        #expect(finding?.timeouts == 1)
        #expect(finding?.reason.contains("1 revision") == true)
        #expect(finding?.suggestedTimeout ?? 0 >= 1.9)
    }

    @Test func mostlyTimingOutIsBroken() {
        #expect(verdict(site(Array(repeating: (false, 1.0, 100), count: 8) + [(true, 0.5, 50)])) == .broken)
    }

    @Test func nearTheTimeoutWithoutTimingOutIsAtRisk() {
        let near = site(Array(repeating: (true, 0.5, 50), count: 9) + [(true, 0.95, 95)])
        #expect(verdict(near) == .atRisk)
        let finding = PredicateAnalysis.judge(near, thresholds: FlakyThresholds())
        #expect(finding?.marginMax == 0.95)
        #expect(
            abs((finding?.suggestedTimeout ?? 0) - 2 * Statistics.percentile(near.evaluations.map { $0.waited }, 0.99))
                < 1e-9)
    }

    @Test func tooFewEvaluationsAreNotAtRisk() {
        #expect(verdict(site(Array(repeating: (true, 0.95, 95), count: 9))) == nil)
    }

    @Test func comfortableMarginsAreHealthy() {
        #expect(verdict(site(Array(repeating: (true, 0.1, 10), count: 20))) == nil)
    }

    @Test func doesntHoldThatAlwaysHeldAtOnceIsVacuous() {
        #expect(verdict(site(.doesntHold, Array(repeating: (true, 0.0, 1), count: 3))) == .vacuous)
        #expect(verdict(site(.doesntHold, [(true, 0.0, 1), (true, 0.1, 5)])) == nil)
        #expect(verdict(site(.holds, Array(repeating: (true, 0.0, 1), count: 3))) == nil)
    }
}
