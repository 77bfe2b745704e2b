import LedgerTestSupport
import Testing

@testable import LedgerCore

/// The culprit at the level of steps: which other tests, and which of their steps, were running
/// while the flaky test's failing step ran.
struct StepCompanyTests {
    func report(_ history: PlantedRace) -> CulpritReport {
        CulpritAnalysis.report(
            test: PlantedRace.flaky, configuration: "*", attempts: history.attempts, runs: 30)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64]) func theRacingTestAndItsStepComeFirst(seed: UInt64) throws {
        let history = PlantedRace(seed: seed)
        let report = report(history)
        let failing = report.failingAttempts
        #expect(failing >= 5 && failing <= 25, "\(failing)")
        #expect(report.where?.activity == PlantedRace.failingStep)
        let first = try #require(report.suspects.first, "\(report)")
        #expect(first.kind == .overlappingStep, "\(report.suspects.map { "\($0.kind) \($0.name) \($0.evidence)" })")
        #expect(first.name == PlantedRace.racing)
        #expect(first.step == PlantedRace.racingStep)
        #expect(
            first.evidence.hasPrefix(
                "'Quote the family room' ran while \(PlantedRace.racing) was past 'Refresh at launch' and not yet "
                    + "ended in \(failing) of \(failing) failing attempts and "),
            "\(first.evidence)")
        // The retries ran alone: they say nothing of the neighbours.
        #expect(first.failing.of + first.passing.of == 30)
        // Decoys whose steps run early or late track the racer's timing; none separates as well.
        #expect(
            report.suspects.filter { PlantedRace.decoys.contains($0.name) }.allSatisfy { $0.score < first.score },
            "\(report.suspects)")
    }

    @Test func aTestThatFailsOnlyBesideOthersSaysSo() throws {
        let neighbour = AttemptEvidence.Company(test: "T/other()", startedAt: 0, endedAt: 5, steps: [])
        var attempts: [AttemptEvidence] = []
        for run in 0..<8 {
            let failing = run < 6
            var first = AttemptEvidence(
                run: "r\(run)", attempt: 1, outcome: failing ? .failed : .passed, startedAt: 0, duration: 1)
            first.company = [neighbour]
            attempts.append(first)
            guard failing else { continue }
            var retry = AttemptEvidence(run: "r\(run)", attempt: 2, outcome: .passed, startedAt: 10, duration: 1)
            retry.company = []
            attempts.append(retry)
        }
        let report = CulpritAnalysis.report(test: "T/flaky()", configuration: "*", attempts: attempts, runs: 8)
        let retry = try #require(report.suspects.first { $0.kind == .attempt }, "\(report)")
        #expect(
            retry.evidence
                == "passes when retried alone (6 of 6): fails only beside other tests — `verify --isolate`")
        #expect(report.failsOnlyBeside == ["T/other()"], "what verify runs it beside")
        let conditions = VerificationConditions(
            culprit: report.brief, host: nil, configuration: nil, failsOnlyBeside: report.failsOnlyBeside)
        #expect(conditions.runsBeside == ["T/other()"])
        // A failure that had no other test beside it proves nothing of the kind.
        attempts[0].company = []
        let beside = CulpritAnalysis.report(test: "T/flaky()", configuration: "*", attempts: attempts, runs: 8)
        #expect(beside.suspects.first { $0.kind == .attempt }?.evidence.hasSuffix(": retries pass") == true)
        #expect(beside.failsOnlyBeside == nil)
    }

    @Test func aSuiteWhereNothingRacesNamesNoOtherTest() {
        var named: [String] = []
        for seed in 1...40 as ClosedRange<UInt64> {
            let report = report(PlantedRace(seed: seed, racing: false))
            let others = report.suspects.filter { [.overlappingStep, .overlappingTest].contains($0.kind) }
            if let first = others.first { named.append("seed \(seed): \(first.kind) \(first.name) \(first.evidence)") }
        }
        #expect(named.count <= 2, "\(named.joined(separator: "\n"))")
    }

    @Test func aPassingAttemptIsLookedAtAsLongAsFailingOnesTookToFail() {
        // The neighbour flips the value 0.5 s into the step: after the failing attempts failed.
        let flip = AttemptEvidence.Company(
            test: "T/flips()", startedAt: 0, endedAt: 10,
            steps: [.init(path: ["Flip"], startedAt: 1.5, endedAt: 2, outcome: .passed)])
        let attempts = (0..<6).map { index in
            let failing = index < 3
            var attempt = AttemptEvidence(
                run: "r\(index)", attempt: 1, outcome: failing ? .failed : .passed, startedAt: 0, duration: 3,
                steps: [.init(path: ["Quote"], startedAt: 1, endedAt: failing ? 1.2 : 2.5, outcome: .passed)])
            attempt.company = [flip]
            return attempt
        }
        let company = StepCompany(attempts, step: "Quote", cutoffs: [1.1, 1.1, 1.1, .infinity, .infinity, .infinity])
        let past = CulpritFeatures.Key(kind: .overlappingStep, name: "T/flips()", measure: .pastStep, step: "Flip")
        #expect(company.presences[past] == nil, "a passing step's later moments are not compared")
        let running = CulpritFeatures.Key(kind: .overlappingStep, name: "T/flips()", measure: .present)
        #expect(company.presences[running] == .init(failingWith: 3, failingSeen: 3, passingWith: 3, passingSeen: 3))
    }

    @Test func anAttemptAloneOrWithoutTheStepIsNotCompared() {
        let step = AttemptEvidence.Step(path: ["Quote"], startedAt: 1, endedAt: 2, outcome: .passed)
        let neighbour = AttemptEvidence.Company(
            test: "T/other()", startedAt: 0, endedAt: 3,
            steps: [.init(path: ["Flip"], startedAt: 0.5, endedAt: 1.5, outcome: .passed)])
        var alone = AttemptEvidence(run: "a", attempt: 2, outcome: .passed, startedAt: 0, duration: 3, steps: [step])
        alone.company = []
        var stepless = AttemptEvidence(run: "b", attempt: 1, outcome: .passed, startedAt: 0, duration: 3)
        stepless.company = [neighbour]
        var beside = AttemptEvidence(run: "c", attempt: 1, outcome: .failed, startedAt: 0, duration: 3, steps: [step])
        beside.company = [neighbour]
        let company = StepCompany([alone, stepless, beside], step: "Quote", cutoffs: [.infinity, .infinity, 1.2])
        let during = CulpritFeatures.Key(kind: .overlappingStep, name: "T/other()", measure: .duringStep, step: "Flip")
        #expect(company.presences[during] == .init(failingWith: 1, failingSeen: 1, passingWith: 0, passingSeen: 0))
        #expect(company.presences.count == 1, "running, past its step and in it, all in the same attempts: the last")
    }
}
