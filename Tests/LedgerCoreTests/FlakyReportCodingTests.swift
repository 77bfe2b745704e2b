import Foundation
import Testing

@testable import LedgerCore

/// `report flaky`'s JSON keeps `recovered` as the recovered tests' ids, as first published, and
/// gives the tests themselves under `recoveredTests`.
@Suite struct FlakyReportCodingTests {
    static func recovered(_ test: String, _ configuration: String) -> FlakyReport.RecoveredTest {
        FlakyReport.RecoveredTest(
            test: test, configuration: configuration, runs: 30, quietRuns: 19, earlierRate: 0.27,
            quietChance: 0.0025, lastFlake: "2026-11-20T10:04:00Z", strip: "FPPP")
    }

    static let report = FlakyReport(
        runs: 30, flaky: [], broken: [],
        recovered: [
            recovered("A.Cart/total", "iPad"), recovered("A.Cart/total", "iPhone"), recovered("A.Auth/login", ""),
        ],
        predicates: [], noiseRuns: [])

    @Test func recoveredIsTheSortedIdsAndRecoveredTestsTheTests() throws {
        let data = try JSONEncoder().encode(Self.report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["recovered"] as? [String] == ["A.Auth/login", "A.Cart/total"])
        let tests = try #require(object["recoveredTests"] as? [[String: Any]])
        #expect(tests.map { $0["configuration"] as? String } == ["iPad", "iPhone", ""])
        #expect(tests.first?["quietRuns"] as? Int == 19)
    }

    @Test func theReportReadsBackFromItsJSON() throws {
        let data = try JSONEncoder().encode(Self.report)
        #expect(try JSONDecoder().decode(FlakyReport.self, from: data) == Self.report)
    }
}
