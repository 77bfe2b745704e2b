import Foundation
import Testing

@testable import LedgerCore

/// A fix followed from its verification to the default branch: pending, landed, released, or
/// regressed, on values.
@Suite struct RecordedFixTests {
    static let test = "App.CartTests/testTotal"

    static func fix(runsToRelease: Int? = 3, rateBefore: Double = 0.25) -> RecordedFix {
        RecordedFix(
            test: test, project: "App", revision: "f1x0000000000000", branch: "fix-total", at: 100,
            evidence: .init(
                verificationRun: "v", runs: 11, failureRateBefore: rateBefore, remainingRateBelow: 0.239,
                confidence: 0.95),
            runsToRelease: runsToRelease)
    }

    static func run(_ id: String, _ revision: String?, at: Double, failed: Bool? = false) -> RecordedFix.BranchRun {
        RecordedFix.BranchRun(
            run: id, revision: revision, at: at, failed: failed == true ? [test] : [],
            passed: failed == false ? [test] : [])
    }

    @Test func itLandsOnItsRevisionOrADescendantThenHoldsForItsRunsOrRegresses() {
        var fix = Self.fix()
        #expect(fix.state == .pending && fix.runsToRelease == 3)
        // The default branch before the fix: nothing changes, and a failure there is not a regression.
        fix = fix.advanced(by: Self.run("m1", "0ld", at: 110, failed: true)) { _ in false }
        #expect(fix == Self.fix())
        // A descendant lands it; the run it lands in counts as its first clean run.
        var asked: [String] = []
        fix = fix.advanced(by: Self.run("m2", "merge", at: 120)) { ancestor in
            asked.append(ancestor)
            return true
        }
        #expect(asked == ["f1x0000000000000"])
        #expect(fix.state == .landed && fix.landedRevision == "merge" && fix.landedAt == 120 && fix.cleanRuns == 1)
        // A run without the test counts nothing; ancestry is not asked again once landed.
        fix = fix.advanced(by: Self.run("m3", "next", at: 130, failed: nil)) { _ in
            Issue.record("asked"); return true
        }
        #expect(fix.state == .landed && fix.cleanRuns == 1)
        fix = fix.advanced(by: Self.run("m4", "next", at: 140)) { _ in false }
        fix = fix.advanced(by: Self.run("m5", "next", at: 150)) { _ in false }
        #expect(fix.state == .released && fix.cleanRuns == 3 && fix.changedAt == 150)
        // Released, it is still watched: a failure on the default branch reopens it.
        let regressed = fix.advanced(by: Self.run("m6", "later", at: 160, failed: true)) { _ in false }
        #expect(
            regressed.state == .regressed && regressed.regressedRevision == "later" && regressed.regressedRun == "m6")
        #expect(regressed.advanced(by: Self.run("m7", "again", at: 170)) { _ in true } == regressed)
    }

    @Test func aFailureBeforeItHeldRegressesItAndTheRunsDefaultToTheVerificationsNeed() {
        let landed = Self.fix().advanced(by: Self.run("m1", "f1x0000000000000", at: 110, failed: true)) { _ in
            Issue.record("its own revision needs no git")
            return false
        }
        #expect(landed.state == .regressed && landed.landedRevision == "f1x0000000000000" && landed.cleanRuns == 0)
        // Without `fixLanding.runs`, as many runs as rule out the rate before at its confidence:
        // ⌈ln 0.05 / ln 0.75⌉ = 11 for 25 %, 59 for 5 %.
        #expect(Self.fix(runsToRelease: nil).runsToRelease == 11)
        #expect(Self.fix(runsToRelease: nil, rateBefore: 0.05).runsToRelease == 59)
        // A run on an unknown revision lands nothing.
        #expect(Self.fix().advanced(by: Self.run("m", nil, at: 1)) { _ in true }.state == .pending)
    }

    @Test func theStandingSaysTheFixAndTheFlakyReportMarksOrDropsItsTest() throws {
        let flaky = FlakyReport(
            runs: 10,
            flaky: [
                .init(
                    test: Self.test, configuration: "", score: 0.3, runs: 10, failures: 3, retriedPasses: 0,
                    flipRate: 0.3, revisionsWithBoth: 0, lastFlake: "1970-01-01T00:01:50Z", failureProbability: 0.33,
                    uncertainty: 0.1, quietRuns: 0, earlierRate: 0.3, quietChance: 1, quietRunsNeeded: nil,
                    strip: "PFPFPPFPPP")
            ], broken: [], recovered: [], predicates: [], noiseRuns: [])
        let runs = TestStanding.Runs(count: 10, failed: 3, newestFailed: false)
        let pending = TestStanding.of(Self.test, report: flaky, quarantine: [], runs: runs, fix: Self.fix())
        #expect(pending.standing == .fixPending && pending.standing.exitStatus == 14)
        #expect(pending.reason == "fix verified on f1x00000 (fix-total), not yet on the default branch")
        #expect(pending.fix?.revision == "f1x0000000000000" && pending.failureRate == 0.33)
        let landed = Self.fix().advanced(by: Self.run("m", "merge", at: 120)) { _ in true }
        let onMain = TestStanding.of(Self.test, report: flaky, quarantine: [], runs: runs, fix: landed)
        #expect(onMain.standing == .fixLanded && onMain.reason.hasSuffix("1 of 3 clean runs"))
        let regressed = landed.advanced(by: Self.run("m2", "bad00000c0ffee", at: 130, failed: true)) { _ in true }
        let failing = TestStanding.of(Self.test, report: flaky, quarantine: [], runs: runs, fix: regressed)
        #expect(failing.standing == .regressed && failing.reason == "failed on bad00000 after fix f1x00000 landed")
        #expect(TestStanding.exitStatus(of: [pending, failing, onMain]) == 16)

        #expect(flaky.following([Self.fix()]).flaky.first?.fix?.state == .pending)
        #expect(FlakyRendering.table(flaky.following([Self.fix()])).contains("\(Self.test) (fix-pending f1x00000)"))
        #expect(
            FlakyRendering.table(flaky.following([landed])).contains(
                "\(Self.test) (fix-landed f1x00000, 1 of 3 clean runs)"))
        // Released: its failures came before the fix landed (110 < 120), so it leaves the report,
        // and its standing is judged as any test's.
        var released = landed
        (released.state, released.cleanRuns) = (.released, 3)
        #expect(flaky.following([released]).flaky.isEmpty)
        #expect(TestStanding.of(Self.test, report: flaky, quarantine: [], runs: runs, fix: released).standing == .flaky)
        // One that flaked again after it landed stays.
        var late = flaky
        late.flaky[0].lastFlake = "1970-01-01T00:05:00Z"
        #expect(late.following([released]).flaky.count == 1)
        let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(pending)) as? [String: Any]
        #expect((json?["fix"] as? [String: Any])?["state"] as? String == "fix-pending", "\(String(describing: json))")
    }
}
