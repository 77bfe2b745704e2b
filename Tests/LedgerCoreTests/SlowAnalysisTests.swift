import Foundation
import LedgerCore
import Testing

@Suite struct SlowAnalysisTests {
    func history(_ test: String, now: [Double], before: [Double]) -> DurationHistory {
        DurationHistory(test: test, configuration: "", current: now, previous: before)
    }

    @Test func aMedianGrownPastBothThresholdsIsASlowdown() throws {
        let report = SlowAnalysis.report(
            [
                history("A/slower", now: [1.5, 1.6, 1.4, 9], before: [1.0, 1.1, 0.9]),
                history("A/tenPercent", now: [1.1, 1.1, 1.1], before: [1.0, 1.0, 1.0]),
                history("A/tinyButFivefold", now: [0.01, 0.01, 0.01], before: [0.002, 0.002, 0.002]),
                history("A/twoRunsOnly", now: [5, 5], before: [1, 1, 1]),
                history("A/fromZero", now: [0.2, 0.2, 0.2], before: [0, 0, 0]),
                history("A/faster", now: [0.5, 0.5, 0.5], before: [2, 2, 2]),
            ], runs: 4, previousRuns: 3)
        #expect(report.slowdowns.map(\.test) == ["A/slower", "A/fromZero"])
        let slower = try #require(report.slowdowns.first)
        #expect(slower.previousP50 == 1.0 && slower.p50 == 1.55)
        #expect(abs(slower.change - 0.55) < 1e-9 && abs((slower.changeShare ?? 0) - 0.55) < 1e-9)
        #expect(report.slowdowns.last?.changeShare == nil, "no share of a zero median")
        // JSON has no infinity: a zero median's share is left out.
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!json.contains("changeShare\":null"))
    }

    @Test func theSlowestAreRankedByMedianWithTheirPercentiles() throws {
        let report = SlowAnalysis.report(
            [
                history("A/a", now: (1...20).map(Double.init), before: []),
                history("A/b", now: [30], before: []),
                history("A/c", now: [0.1], before: []),
                history("A/none", now: [], before: [4]),
            ], runs: 20, previousRuns: 0, limit: 2)
        #expect(report.slowest.map(\.test) == ["A/b", "A/a"])
        let a = try #require(report.slowest.last)
        #expect(a.p50 == 10.5 && a.max == 20 && a.runs == 20)
        #expect(abs(a.p90 - 18.1) < 1e-9 && abs(a.p95 - 19.05) < 1e-9)
        #expect(report.slowdowns.isEmpty)
    }

    @Test func theTableSaysTheChangeInSecondsAndPercent() {
        let report = SlowAnalysis.report(
            [history("A/slower", now: [3, 3, 3], before: [2, 2, 2])], runs: 3, previousRuns: 3)
        let table = SlowRendering.table(report)
        #expect(table.contains("Slower: 1 test(s) whose median grew by more than 20% and 50ms"), "\(table)")
        #expect(table.contains("+1.00s") && table.contains("+50%"), "\(table)")
    }
}
