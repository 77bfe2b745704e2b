import Foundation
import LedgerCore
import Testing

@Suite struct RunReportTests {
    let run = (id: "run-9", project: "Shop", branch: Optional("feature"), revision: Optional("abc"), configuration: "")

    func flaky(_ test: String) -> FlakyReport.FlakyTest {
        let report = FlakinessAnalysis.report(
            histories: [
                TestHistory(
                    test: test,
                    samples: (0..<10).map {
                        RunSample(run: "r\($0)", at: Double($0), attempts: [$0 % 2 == 0 ? .failed : .passed])
                    })
            ], health: [], predicates: [], now: 100)
        return report.flaky[0]
    }

    @Test func eachFailureGetsTheStrongestVerdictAndTheMostUsefulComeFirst() {
        let history = RunReport.BaseHistory(
            branch: "main", runs: 8, everFailed: ["A/before", "A/onBase", "A/flakyOnBase", "A/quarantinedOnBase"],
            newestFailed: ["A/onBase", "A/flakyOnBase", "A/quarantinedOnBase", "A/fixed"], newestRun: "main-7")
        let failing = ["A/quarantinedOnBase", "A/flaky", "A/flakyOnBase", "A/onBase", "A/before", "A/new"].map {
            RunReport.Failing(test: $0, message: "\($0) broke")
        }
        let report = RunReport.classify(
            run: run, tests: 9, failing: failing, passed: ["A/fixed", "A/other"], base: ("main", history),
            flaky: [flaky("A/flaky"), flaky("A/flakyOnBase")],
            quarantine: [
                QuarantinedTest(
                    project: "Shop", test: "A/quarantinedOnBase", mode: .mute, reason: "flaky", by: "ana", since: 0)
            ])
        #expect(
            report.failures.map(\.test) == [
                "A/new", "A/before", "A/onBase", "A/flaky", "A/flakyOnBase", "A/quarantinedOnBase",
            ])
        #expect(
            report.failures.map(\.verdict) == [
                .new, .failedBefore, .failingOnBase, .knownFlaky, .knownFlaky, .quarantined,
            ])
        #expect(report.failures[0].evidence == "never failed on main before")
        #expect(report.failures[1].evidence == "failed on main before; passes in its newest run")
        #expect(report.failures[2].evidence == "the newest main run (main-7) failed it too")
        #expect(report.failures[3].score != nil && report.failures[3].strip == "FPFPFPFPFP")
        #expect(!report.failures[3].evidence.contains("main-7"))
        #expect(report.failures[4].evidence.hasSuffix("; the newest main run (main-7) failed it too"))
        #expect(report.failures[5].quarantined == .mute)
        #expect(report.failures[0].message == "A/new broke")
        #expect(report.fixed == ["A/fixed"])
        #expect(report.baseRun == "main-7" && report.base == "main")
        #expect(report.comparedWith == .init(branch: "main", runs: 8))
        #expect(
            RunReportRendering.headline(report)
                == "6 failure(s) in 9 tests: 1 new, 1 failed before, 1 failing on base too, 2 known flaky, "
                + "1 quarantined (base: main)")
    }

    @Test func aFlakyTestOfAnotherConfigurationIsNotThisOnesEvidence() {
        var ipad = flaky("A/flaky")
        ipad.configuration = "iPad"
        let report = RunReport.classify(
            run: run, tests: 1, failing: [.init(test: "A/flaky", message: nil)], passed: [],
            base: ("main", .init(branch: "main")), flaky: [ipad], quarantine: [])
        #expect(report.failures.map(\.verdict) == [.new])
    }

    @Test func markdownStaysShortForTwoThousandFailuresAndEscapesWhatItShows() {
        let failing = (0..<2_000).map { RunReport.Failing(test: "A/test|\($0)", message: "line | one\nline two") }
        var report = RunReport.classify(
            run: run, tests: 2_500, failing: failing, passed: [], base: ("main", .init(branch: "main")), flaky: [],
            quarantine: [])
        report.groups = FailureGrouping.groups(
            (0..<2_000).map {
                FailureSample(
                    test: "A/test|\($0)", run: "run-9", at: 0,
                    message: $0 < 40
                        ? "Fixture /tmp/f\($0).json not found" : "expected \($0) got \($0 + 1) in case \($0 % 7)")
            })
        let markdown = RunReportRendering.markdown(report, dashboard: URL(string: "https://ledger.example/"))
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 40, "\(lines.count) lines")
        #expect(markdown.utf8.count < 7_000)
        #expect(
            markdown.contains("- **1960 tests** share one cause: `expected <n> got <n> in case <n>`"), "\(markdown)")
        #expect(
            markdown.contains("- **40 tests** share one cause: `Fixture <path> not found` (A/test\\|0, A/test\\|1, …)"))
        #expect(lines.first == "### TestLedger: 2000 failure(s) in 2500 tests: 2000 new")
        #expect(markdown.contains("… and 1980 more failures."))
        #expect(markdown.contains(#"[`A/test\|0`](https://ledger.example/projects/Shop/tests/A%2Ftest%7C0?run=run-9)"#))
        #expect(markdown.contains(#"line \| one |"#) && !markdown.contains("line two"))
    }
}
