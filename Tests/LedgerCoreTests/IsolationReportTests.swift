import Foundation
import LedgerCore
import Testing

@Suite struct IsolationReportTests {
    private func report(alone: Int, beside: Int, runs: Int = 20, arrangement: IsolationReport.Arrangement = .beside)
        -> IsolationReport
    {
        let passes = { (failed: Int) in (0..<runs).map { $0 >= failed } }
        return IsolationReport(
            test: "Cart/keeps()", neighbour: "Cart/clears()", arrangement: arrangement, alone: passes(alone),
            beside: passes(beside), run: "r")
    }

    @Test func aFailureSeenOnlyBesideTheNeighbourNeedsIt() {
        let found = report(alone: 0, beside: 6)
        #expect(found.alone == .init(runs: 20, failed: 0))
        #expect(found.beside == .init(runs: 20, failed: 6))
        #expect(found.verdict == .needsNeighbour)
        // Six failures among 40 runs, all six in the 20 beside: C(20,6) / C(40,6).
        #expect(abs(found.p - 38760.0 / 3_838_380.0) < 1e-9)
        #expect(found.sentence == "fails only beside `Cart/clears()`: 6 of 20 vs 0 of 20 alone")
        #expect(
            report(alone: 0, beside: 6, arrangement: .before).sentence.hasPrefix("fails only after `Cart/clears()`"))
    }

    @Test func failingAloneAsOftenClearsTheNeighbour() {
        let found = report(alone: 5, beside: 6)
        #expect(found.verdict == .failsAlone)
        #expect(found.sentence.contains("the neighbour is not the cause"))
        #expect(report(alone: 2, beside: 12).verdict == .needsNeighbour, "far likelier beside it")
        #expect(report(alone: 2, beside: 12).sentence.hasPrefix("fails more often beside"))
    }

    @Test func tooFewFailuresToTellAndNoneAtAll() {
        #expect(report(alone: 0, beside: 2).verdict == .inconclusive)
        #expect(report(alone: 0, beside: 2).sentence.contains("run more"))
        #expect(report(alone: 0, beside: 0).verdict == .notReproduced)
    }

    @Test func itsJSONKeysAreTheContract() throws {
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report(alone: 0, beside: 6)))
        let object = try #require(json as? [String: Any])
        #expect(
            Set(object.keys) == ["test", "neighbour", "arrangement", "alone", "beside", "p", "verdict", "run"])
        #expect(object["verdict"] as? String == "needs-neighbour")
        #expect((object["beside"] as? [String: Any])?["failed"] as? Int == 6)
    }
}
