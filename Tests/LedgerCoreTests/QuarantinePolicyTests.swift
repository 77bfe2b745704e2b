import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// The automatic quarantine on generated histories, one run a day.
@Suite struct QuarantinePolicyTests {
    static let day = 86_400.0

    var policy: QuarantinePolicy {
        var policy = QuarantinePolicy()
        policy.mutesFlakyTests = true
        return policy
    }

    func history(_ test: String, _ attempts: [[Outcome]]) -> TestHistory {
        TestHistory(
            test: test,
            samples: attempts.enumerated().map { run, attempts in
                RunSample(run: "run\(run)", at: Double(run) * Self.day, revision: "r\(run / 3)", attempts: attempts)
            })
    }

    func decide(_ histories: [TestHistory], quarantine: [QuarantinedTest] = [], runs: Int) -> (
        mute: [QuarantinedTest], evidence: [String: String], release: [QuarantinePolicy.Release]
    ) {
        let report = FlakinessAnalysis.report(
            histories: histories, health: [], predicates: [], now: Double(runs) * Self.day,
            thresholds: policy.thresholds(FlakyThresholds())
        ).marking(quarantine)
        return policy.changes(report: report, quarantine: quarantine, project: "App", now: Double(runs) * Self.day)
    }

    func automatic(_ test: String) -> QuarantinedTest {
        QuarantinedTest(
            project: "App", test: test, configuration: "", mode: .mute, reason: "flaky", by: "testledger", since: 0,
            automatic: true)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func flakyTestsAreMutedAndBrokenOrFixedOnesNever(seed: UInt64) {
        var numbers = SeededNumbers(seed: seed)
        let planted = PlantedKind.allCases.flatMap { kind in
            (0..<6).map { (kind, history("\(kind)/test\($0)", kind.attempts(runs: 60, &numbers))) }
        }
        let decided = decide(planted.map(\.1), runs: 60)
        let muted = Set(decided.mute.map(\.test))
        for (kind, history) in planted where !kind.isFlaky {
            #expect(!muted.contains(history.test), "\(kind) must not be muted")
        }
        let flaky = planted.filter { $0.0.isFlaky }.count
        #expect(muted.count >= flaky - 1, "\(muted.count) of \(flaky) planted flaky tests muted")
        for entry in decided.mute {
            #expect(entry.automatic && entry.by == "testledger" && entry.mode == .mute && entry.configuration == "")
            #expect(decided.evidence[entry.test]?.contains(#""strip":""#) == true)
        }
        #expect(decide(planted.map(\.1), runs: 60).release.isEmpty)
    }

    @Test func aFlakyTestNeedsTheConfiguredRunsOfEvidence() {
        let young = history("A/young", (0..<6).map { $0 % 2 == 0 ? [.failed] : [.passed] })
        #expect(decide([young], runs: 6).mute.isEmpty, "6 runs judged, 10 needed")
        let older = history("A/older", (0..<12).map { $0 % 2 == 0 ? [.failed] : [.passed] })
        #expect(decide([older], runs: 12).mute.map(\.test) == ["A/older"])
        #expect(decide([older], quarantine: [automatic("A/older")], runs: 12).mute.isEmpty, "already muted")
    }

    @Test func aRecoveredTestIsReleasedWithItsEvidenceAndALuckyOneIsNot() {
        // Flaky a quarter of the time over 40 runs, then quiet: 17 quiet runs are needed at that rate.
        let earlier: [[Outcome]] = (0..<40).map { $0 % 4 == 0 ? [.failed] : [.passed] }
        let recovered = history("A/recovered", earlier + Array(repeating: [.passed], count: 20))
        let lucky = history("A/lucky", earlier + Array(repeating: [.passed], count: 6))
        let decided = decide(
            [recovered, lucky], quarantine: [automatic("A/recovered"), automatic("A/lucky")], runs: 60)
        #expect(decided.release.map(\.test) == ["A/recovered"])
        #expect(decided.release.first?.reason.hasPrefix("recovered: 23 quiet runs") == true)
        #expect(decided.release.first?.evidence.contains(#""quietRuns":23"#) == true)
    }

    @Test func quietDaysAreNeededBeforeRelease() {
        let earlier: [[Outcome]] = (0..<40).map { $0 % 4 == 0 ? [.failed] : [.passed] }
        // The last flake on day 36, then 23 quiet runs, the last 20 two a day: evidence enough by
        // chance, but 14 quiet days only after day 50.
        let samples = (earlier + Array(repeating: [.passed], count: 20)).enumerated().map { run, attempts in
            RunSample(
                run: "run\(run)", at: (run < 40 ? Double(run) : 40 + Double(run - 40) / 2) * Self.day,
                attempts: attempts)
        }
        func released(at day: Double) -> [String] {
            let report = FlakinessAnalysis.report(
                histories: [TestHistory(test: "A/fast", samples: samples)], health: [], predicates: [],
                now: day * Self.day, thresholds: policy.thresholds(FlakyThresholds())
            ).marking([automatic("A/fast")])
            return policy.changes(
                report: report, quarantine: [automatic("A/fast")], project: "App", now: day * Self.day
            ).release.map(\.test)
        }
        #expect(released(at: 49.6) == [])
        #expect(released(at: 50.1) == ["A/fast"])
    }

    @Test func aMutedTestThatBreaksIsReleasedToStayVisibleAndPeoplesEntriesAreLeftAlone() {
        let breaks = history("A/breaks", (0..<30).map { $0 < 20 ? ($0 % 3 == 0 ? [.failed] : [.passed]) : [.failed] })
        let decided = decide([breaks], quarantine: [automatic("A/breaks")], runs: 30)
        #expect(decided.release.map(\.test) == ["A/breaks"])
        #expect(decided.release.first?.reason.hasPrefix("broken:") == true)
        var manual = automatic("A/breaks")
        manual.automatic = false
        #expect(decide([breaks], quarantine: [manual], runs: 30).release.isEmpty)
    }
}
