import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// `report run` on generated histories whose runs carry no branch, or whose base branch has a
/// flaky test that failed its newest run: every verdict, and what was compared.
@Suite struct RunReportComparisonQueryTests {
    static let hour = 3_600.0
    static let start = 1_790_000_000.0

    /// The history's earlier runs, then its next run (returned), each `branch`'s, with a run of
    /// another configuration that fails every planted test after each.
    func send(_ ledger: TemporaryStore, _ history: inout VerdictHistory, branch: String?, next: String?) throws
        -> String
    {
        for index in 0...history.earlierRuns {
            let at = Self.start + Double(index) * Self.hour
            let script = history.script(
                run: index, project: "Demo", branch: index == history.earlierRuns ? next : branch, at: at)
            try ledger.ingest(script.records)
            guard index < history.earlierRuns else { return script.run }
            var other = RunScript(project: "Demo", at: at + 60).start(configuration: "iPad", branch: branch)
            for test in history.tests { other = history.verdicts[test] == nil ? other.pass(test) : other.fail(test) }
            try ledger.ingest(other.end().records)
        }
        return ""
    }

    func judge(_ ledger: TemporaryStore, _ run: String, window: Int = 30) throws -> RunReport {
        try ledger.database.quarantine([
            QuarantinedTest(
                project: "Demo", test: VerdictHistory.quarantined, mode: .mute, reason: "flaky", by: "ana", since: 0)
        ])
        return try ledger.database.runReport(
            run: run, project: "Demo", base: "main", window: window, thresholds: FlakyThresholds(),
            now: Self.start + 400 * Self.hour)
    }

    @Test(arguments: StoreKind.available)
    func withoutBranchesTheRunsBeforeOfTheConfigurationAreCompared(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            var history = VerdictHistory(seed: 5)
            let run = try send(ledger, &history, branch: nil, next: nil)
            let report = try judge(ledger, run)
            #expect(report.run == run && report.branch == nil)
            #expect(report.comparedWith == .init(branch: nil, runs: 8), "the iPad runs are another configuration's")
            #expect(report.base == "main" && report.baseRun == String(format: "00000000-0000-4000-8000-%012d", 7))
            #expect(
                Dictionary(uniqueKeysWithValues: report.failures.map { ($0.test, $0.verdict.rawValue) })
                    == history.verdicts)
            #expect(report.fixed == [VerdictHistory.fixed])
            let evidence = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.test, $0.evidence) })
            #expect(evidence["App.Cart/new"] == "never failed in the 8 runs before")
            #expect(evidence["App.Cart/before"] == "failed in the 8 runs before; passes in the newest of them")
            #expect(evidence["App.Cart/broken"] == "broken: failed the last 4 runs")
            #expect(evidence["App.Cart/onBase"] == "the run before (00000000) failed it too")
            #expect(
                evidence["App.Cart/flaky"]?.contains("; the run before (00000000) failed it too") == true,
                "\(evidence)")
            #expect(
                RunReportRendering.headline(report).hasSuffix("(no main runs: compared with the 8 runs before)"))

            // The flaky window's count of runs is compared: the oldest run, and its failure, drop out.
            let shorter = try judge(ledger, run, window: 5)
            #expect(shorter.comparedWith == .init(branch: nil, runs: 5))
            #expect(shorter.failures.first { $0.test == "App.Cart/before" }?.verdict == .new)
        }
    }

    @Test(arguments: StoreKind.available)
    func aTestFlakyOnTheBaseIsKnownFlakyThoughItFailedTheNewestBaseRun(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            var history = VerdictHistory(seed: 9)
            let run = try send(ledger, &history, branch: "main", next: "feature")
            let report = try judge(ledger, run)
            #expect(report.branch == "feature" && report.comparedWith == .init(branch: "main", runs: 8))
            #expect(
                Dictionary(uniqueKeysWithValues: report.failures.map { ($0.test, $0.verdict.rawValue) })
                    == history.verdicts)
            let flaky = try #require(report.failures.first { $0.test == "App.Cart/flaky" })
            #expect(flaky.strip == "PFPFPFPF")
            #expect(flaky.evidence.hasPrefix("flaky: failed 4 of 8 runs"), "\(flaky.evidence)")
            #expect(flaky.evidence.contains("; the newest main run (00000000) failed it too"), "\(flaky.evidence)")
            let broken = try #require(report.failures.first { $0.test == "App.Cart/broken" })
            #expect(broken.evidence == "broken: failed the last 4 runs of main")
            #expect(RunReportRendering.comparison(report) == nil)
            #expect(RunReportRendering.headline(report).hasSuffix("(base: main)"))

            // Judged against a branch with no runs, the project's runs before stand in.
            let onRelease = try ledger.database.runReport(
                run: run, project: "Demo", base: "release", window: 30, thresholds: FlakyThresholds(),
                now: Self.start + 400 * Self.hour)
            #expect(onRelease.comparedWith == .init(branch: nil, runs: 8) && onRelease.base == "release")
            #expect(onRelease.failures.map(\.verdict) == report.failures.map(\.verdict))
        }
    }

    @Test(arguments: StoreKind.available)
    func aBrokenTestTheRunBeforePassedOnARetryFailedBefore(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            var last = ""
            for index in 0..<6 {
                var script = RunScript(project: "Demo", at: Self.start + Double(index) * Self.hour).start()
                    .pass("A/stable")
                script =
                    index == 4
                    ? script.fail("A/broken").result("A/broken", .passed, attempt: 2) : script.fail("A/broken")
                try ledger.ingest(script.end().records)
                last = script.run
            }
            let report = try judge(ledger, last)
            let broken = try #require(report.failures.first)
            #expect(broken.verdict == .failedBefore)
            #expect(broken.evidence.hasPrefix("broken: failed 4 of 5 runs; the run before ("), "\(broken.evidence)")
            #expect(broken.evidence.hasSuffix(") passed it"))
        }
    }
}
