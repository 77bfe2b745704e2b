import Foundation
import LedgerCore
import Testing

/// The one rule behind every failure's verdict: quarantined, known flaky, failing on the base,
/// failed before, new; broken tests never new; and what was compared when the base branch has no
/// runs.
@Suite struct RunReportVerdictRuleTests {
    let run = (id: "run-9", project: "Shop", branch: String?.none, revision: String?.none, configuration: "")

    /// `report flaky`'s judgement of a history given as a strip, oldest run first.
    func judged(_ test: String, _ strip: String) -> FlakyReport {
        FlakinessAnalysis.report(
            histories: [
                TestHistory(
                    test: test,
                    samples: strip.enumerated().map { index, letter in
                        RunSample(
                            run: "r\(index)", at: Double(index),
                            attempts: letter == "R" ? [.failed, .passed] : [letter == "F" ? .failed : .passed])
                    })
            ], health: [], predicates: [], now: 100)
    }

    func classify(
        _ failing: [String], history: RunReport.BaseHistory, judged: [FlakyReport], passed: Set<String> = [],
        quarantine: [QuarantinedTest] = []
    ) -> RunReport {
        RunReport.classify(
            run: run, tests: 20, failing: failing.map { .init(test: $0, message: nil) }, passed: passed,
            base: ("main", history), flaky: judged.flatMap(\.flaky), broken: judged.flatMap(\.broken),
            quarantine: quarantine)
    }

    @Test func aTestFlakyOnTheBaseIsKnownFlakyEvenWhenTheNewestBaseRunFailedIt() throws {
        let flaky = judged("A/flaky", "PFPFPF")
        #expect(flaky.flaky.map(\.test) == ["A/flaky"])
        let history = RunReport.BaseHistory(
            branch: "main", runs: 6, everFailed: ["A/flaky"], newestFailed: ["A/flaky"], newestRun: "0123456789",
            failingStreaks: ["A/flaky": 1])
        let failure = try #require(classify(["A/flaky"], history: history, judged: [flaky]).failures.first)
        #expect(failure.verdict == .knownFlaky)
        #expect(failure.strip == "PFPFPF")
        #expect(failure.evidence.hasPrefix("flaky: failed 3 of 6 runs (score "), "\(failure.evidence)")
        #expect(failure.evidence.hasSuffix("; the newest main run (01234567) failed it too"), "\(failure.evidence)")
    }

    @Test func aBrokenTestFailsOnTheBaseWithItsStreakOrFailedBeforeButIsNeverNew() throws {
        let broken = judged("A/broken", "PPFFFFF")
        #expect(broken.broken.map(\.test) == ["A/broken"])
        let failing = RunReport.BaseHistory(
            branch: "main", runs: 7, everFailed: ["A/broken"], newestFailed: ["A/broken"], newestRun: "main-6",
            failingStreaks: ["A/broken": 5])
        let onBase = try #require(classify(["A/broken"], history: failing, judged: [broken]).failures.first)
        #expect(onBase.verdict == .failingOnBase)
        #expect(onBase.evidence == "broken: failed the last 5 runs of main")

        // Broken on another branch's runs; main's newest run passed it.
        let passing = RunReport.BaseHistory(branch: "main", runs: 3, newestRun: "main-2")
        let before = try #require(classify(["A/broken"], history: passing, judged: [broken]).failures.first)
        #expect(before.verdict == .failedBefore)
        #expect(before.evidence == "broken: failed 5 of 7 runs; the newest main run (main-2) passed it")

        // Failing mostly, though the newest compared run passed it on a retry.
        let retried = judged("A/retried", "FFFFR")
        #expect(retried.broken.map(\.test) == ["A/retried"])
        let history = RunReport.BaseHistory(
            branch: nil, runs: 5, everFailed: ["A/retried"], newestRun: "run-8")
        let failedBefore = try #require(classify(["A/retried"], history: history, judged: [retried]).failures.first)
        #expect(failedBefore.verdict == .failedBefore)
        #expect(failedBefore.evidence == "broken: failed 4 of 5 runs; the run before (run-8) passed it")
    }

    @Test func quarantineComesFirstThenFlakyThenTheBase() {
        let judgedHistories = [judged("A/flaky", "PFPFPF"), judged("A/broken", "FFFFFF")]
        let history = RunReport.BaseHistory(
            branch: "main", runs: 6, everFailed: ["A/flaky", "A/broken"], newestFailed: ["A/flaky", "A/broken"],
            newestRun: "main-5", failingStreaks: ["A/flaky": 1, "A/broken": 6])
        let muted = QuarantinedTest(
            project: "Shop", test: "A/broken", mode: .skip, reason: "broken", by: "ana", since: 0)
        let report = classify(["A/flaky", "A/broken"], history: history, judged: judgedHistories, quarantine: [muted])
        #expect(report.failures.map(\.verdict) == [.knownFlaky, .quarantined])
        #expect(report.failures.map(\.test) == ["A/flaky", "A/broken"])
        #expect(report.failures[1].quarantined == .skip)
    }

    @Test func withoutBaseRunsTheRunsBeforeAreComparedAndTheReportSaysSo() throws {
        let judgedHistories = [judged("A/flaky", "PFPFPF"), judged("A/broken", "PPFFFF")]
        let history = RunReport.BaseHistory(
            branch: nil, runs: 6, everFailed: ["A/before", "A/onBase", "A/broken", "A/flaky", "A/fixed"],
            newestFailed: ["A/onBase", "A/broken", "A/flaky", "A/fixed"], newestRun: "run-5",
            failingStreaks: ["A/onBase": 1, "A/broken": 4, "A/flaky": 1, "A/fixed": 1])
        let report = classify(
            ["A/new", "A/before", "A/onBase", "A/broken", "A/flaky", "A/muted"], history: history,
            judged: judgedHistories, passed: ["A/fixed"],
            quarantine: [
                QuarantinedTest(project: "Shop", test: "A/muted", mode: .mute, reason: "flaky", by: "ana", since: 0)
            ])
        let evidence = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.test, $0.evidence) })
        let verdicts = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.test, $0.verdict.rawValue) })
        #expect(
            verdicts == [
                "A/new": "new", "A/before": "failed-before", "A/onBase": "failing-on-base",
                "A/broken": "failing-on-base", "A/flaky": "known-flaky", "A/muted": "quarantined",
            ])
        #expect(evidence["A/new"] == "never failed in the 6 runs before")
        #expect(evidence["A/before"] == "failed in the 6 runs before; passes in the newest of them")
        #expect(evidence["A/onBase"] == "the run before (run-5) failed it too")
        #expect(evidence["A/broken"] == "broken: failed the last 4 runs")
        #expect(evidence["A/flaky"]?.hasSuffix("; the run before (run-5) failed it too") == true)
        #expect(report.comparedWith == .init(branch: nil, runs: 6) && report.base == "main")
        #expect(report.baseRun == "run-5" && report.fixed == ["A/fixed"])

        let comparison = "no main runs: compared with the 6 runs before"
        #expect(RunReportRendering.comparison(report) == comparison)
        #expect(
            RunReportRendering.headline(report)
                == "6 failure(s) in 20 tests: 1 new, 1 failed before, 2 failing on base too, 1 known flaky, "
                + "1 quarantined (\(comparison))")
        let table = RunReportRendering.table(report)
        #expect(table.hasPrefix("Run run-9: 6 failure(s)"), "\(table)")
        #expect(table.contains("Fixed (failing in the run before, passing here): A/fixed"))
        let markdown = RunReportRendering.markdown(report)
        #expect(markdown.hasPrefix("### TestLedger: 6 failure(s) in 20 tests: 1 new, "), "\(markdown)")
        #expect(markdown.contains(comparison))
        for title in ["new", "failed before", "failing on base too", "known flaky", "quarantined"] {
            #expect(markdown.contains("| **\(title)** |"), "\(title)")
        }
        #expect(markdown.contains("| **new** | `A/new` | never failed in the 6 runs before |"))

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(json.contains(#""comparedWith":{"branch":null,"runs":6}"#), "\(json)")
        #expect(json.contains(#""base":"main","baseRun":"run-5""#))
    }

    @Test func theFirstRunHasNothingToCompareWith() {
        let report = classify(["A/new"], history: .init(branch: nil), judged: [])
        #expect(report.failures.map(\.verdict) == [.new])
        #expect(report.failures.first?.evidence == "no run before to compare with")
        #expect(RunReportRendering.comparison(report) == "no main runs: no run before to compare with")
        #expect(report.baseRun == nil && report.comparedWith == .init(branch: nil, runs: 0))
    }

    @Test func theBaseBranchIsNamedAsTheComparison() throws {
        let report = classify(["A/new"], history: .init(branch: "main", runs: 3, newestRun: "main-2"), judged: [])
        #expect(RunReportRendering.comparison(report) == nil)
        #expect(RunReportRendering.table(report).hasPrefix("Run run-9 against main: 1 failure(s)"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(json.contains(#""comparedWith":{"branch":"main","runs":3}"#), "\(json)")
    }
}
