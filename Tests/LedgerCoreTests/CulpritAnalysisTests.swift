import LedgerTestSupport
import Testing

@testable import LedgerCore

/// The culprit report over planted histories: each flaky test fails for one planted cause.
struct CulpritAnalysisTests {
    static let history = PlantedCulprits()

    func report(_ test: String) -> CulpritReport {
        CulpritAnalysis.report(
            test: test, configuration: "*", attempts: Self.history.attempts[test] ?? [], runs: Self.history.runIDs.count
        )
    }

    /// The planted tests whose first suspect is not their planted cause, as a line each.
    static func misses(_ history: PlantedCulprits) -> (missed: [String], planted: Int) {
        var missed: [String] = []
        var planted = 0
        for (test, kind) in history.tests {
            guard case .cause(let cause) = kind else { continue }
            planted += 1
            let report = CulpritAnalysis.report(
                test: test, configuration: "*", attempts: history.attempts[test] ?? [], runs: history.runIDs.count)
            let expected = PlantedCulprits.expected(cause, precededBy: history.partners[test] ?? "")
            let first = report.suspects.first
            if report.verdict != .suspects || first?.kind != expected.0 || first?.name != expected.1 {
                missed.append(
                    "\(test): \(report.verdict) \(report.failingAttempts) failing; "
                        + report.suspects.prefix(3).map { "\($0.kind) \($0.name) \($0.score)" }.joined(separator: ", "))
            }
        }
        return (missed, planted)
    }

    @Test func namesThePlantedCauseFirst() {
        let (missed, _) = Self.misses(Self.history)
        #expect(missed.isEmpty, "\(missed.joined(separator: "\n"))")
    }

    @Test(arguments: [21, 22, 23] as [UInt64]) func namesThePlantedCauseFirstInNineTestsInTen(seed: UInt64) {
        let (missed, planted) = Self.misses(PlantedCulprits(seed: seed, runs: 50, variants: 4))
        #expect(planted == 40)
        #expect(Double(planted - missed.count) / Double(planted) >= 0.9, "\(missed.joined(separator: "\n"))")
    }

    @Test func everyAttemptTheGeneratorFailedIsComparedAsFailing() {
        let history = Self.history
        var ways = Set<PlantedCulprits.Failure>()
        for (test, _) in history.tests {
            let decided = history.decided[test] ?? []
            ways.formUnion(decided.compactMap { $0 })
            let report = report(test)
            // Crashed, erred and never-ended attempts fail as an assertion does.
            #expect(report.failingAttempts == decided.count { $0 != nil }, "\(test)")
            #expect(report.passingAttempts == decided.count { $0 == nil }, "\(test)")
        }
        #expect(ways == Set(PlantedCulprits.Failure.allCases))
        #expect(history.attempts.values.joined().contains { $0.outcome == nil && $0.duration == nil })
    }

    /// One attempt per run, the same length, on `host`; failing as `failure` decides.
    static func attempt(_ index: Int, failure: PlantedCulprits.Failure?, host: String, load: Double? = nil)
        -> AttemptEvidence
    {
        let start = Double(index) * 100
        let outcome: Outcome? =
            switch failure {
            case nil: .passed
            case .failed: .failed
            case .erred: .error
            case .crashed: .crashed
            case .neverEnded: nil
            }
        let issues: [AttemptEvidence.Issue] =
            failure == .failed ? [.init(at: start + 5, message: "not shown", file: "F.swift", line: 9)] : []
        let steps: [AttemptEvidence.Step] =
            load.map { [.init(path: ["Load"], startedAt: start, endedAt: start + $0, outcome: .passed)] } ?? []
        return AttemptEvidence(
            run: "r\(index)", attempt: 1, outcome: outcome, startedAt: start,
            duration: failure == .neverEnded ? nil : 5,
            host: host, steps: steps, issues: issues)
    }

    @Test func aHostsCorrectedChanceIsFishersTailTimesTheHostsCompared() throws {
        // 6 failing attempts, all on mac-3 (an assertion, an error, a crash, one never ended…);
        // 6 passing, one on mac-3. Right tail: C(7,6)·C(5,0) / C(12,6) = 7/924. mac-1 (5 passing
        // attempts) could qualify too, so two features are compared: p = 14/924 = 1/66.
        let failures: [PlantedCulprits.Failure] = [.failed, .failed, .erred, .crashed, .neverEnded, .failed]
        let attempts =
            failures.enumerated().map { Self.attempt($0.offset, failure: $0.element, host: "mac-3") }
            + (6..<12).map { Self.attempt($0, failure: nil, host: $0 == 6 ? "mac-3" : "mac-1") }
        let report = CulpritAnalysis.report(test: "T/t", configuration: "", attempts: attempts, runs: 12)
        #expect(report.failingAttempts == 6 && report.passingAttempts == 6)
        let host = try #require(report.suspects.first)
        #expect(host.kind == .host && host.name == "mac-3" && report.suspects.count == 1)
        #expect(abs(host.p - 1.0 / 66) < 1e-12, "\(host.p)")
        #expect(host.failing == .init(count: 6, of: 6) && host.passing == .init(count: 1, of: 6))
        #expect(host.score == 0.833 && host.threshold == nil)
    }

    @Test func aStepTimesCorrectedChanceCountsTheThresholdsTried() throws {
        // Failing `Load` times 2, 2.5, 3, 3.5, 4 (five thresholds tried); passing 0.5…1.0 and 2.2.
        // At 2 s: 5 of 5 failing and 1 of 7 passing, right tail C(6,5)·C(6,0) / C(12,5) = 6/792,
        // the least of the five; times 5 thresholds = 30/792. Nothing else could qualify.
        let failing = [2, 2.5, 3, 3.5, 4].enumerated().map {
            Self.attempt($0.offset, failure: .failed, host: "mac-1", load: $0.element)
        }
        let passing = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 2.2].enumerated().map {
            Self.attempt(5 + $0.offset, failure: nil, host: "mac-1", load: $0.element)
        }
        let report = CulpritAnalysis.report(test: "T/t", configuration: "", attempts: failing + passing, runs: 12)
        let step = try #require(report.suspects.first, "\(report.verdict)")
        #expect(step.kind == .activity && step.name == "Load" && report.suspects.count == 1)
        #expect(abs(step.p - 30.0 / 792) < 1e-12, "\(step.p)")
        #expect(step.threshold == 2 && step.failing == .init(count: 5, of: 5) && step.passing == .init(count: 1, of: 7))
    }

    @Test func stableTestsAndTestsThatFailedTwiceGetNoSuspect() {
        for (test, kind) in Self.history.tests where kind == .stable || kind == .twoFailures {
            let report = report(test)
            #expect(report.verdict == .tooFewFailures, "\(test)")
            #expect(report.suspects.isEmpty, "\(test)")
            // Two: a run cut short before it ran moves its failure to the next run.
            let failed = Self.history.decided[test, default: []].count { $0 != nil }
            #expect(report.failingAttempts == failed && failed == (kind == .stable ? 0 : 2), "\(test)")
            #expect(report.minimumFailures == 5)
        }
    }

    @Test func theFailureIsWhereNeverASuspect() throws {
        for (test, kind) in Self.history.tests where kind != .stable && kind != .twoFailures {
            let report = report(test)
            let place = try #require(report.where)
            #expect(place.activity == "Open the feed › Show the feed", "\(test)")
            // Assertions fail at one line; errors, crashes and attempts that never ended at none.
            let decided = Self.history.decided[test] ?? []
            let asserted = decided.count { $0 == .failed }
            let unplaced = decided.count { $0 != nil && $0 != .failed }
            #expect(place.attempts == max(asserted, unplaced), "\(test)")
            if asserted > unplaced {
                #expect(place.file == "Tests/FeedTests.swift" && place.line == 42)
                #expect(place.message == "XCTAssertTrue failed - the feed is not shown")
            } else if unplaced > asserted {
                #expect(place.file == nil && place.line == nil, "\(test)")
            }
            for suspect in report.suspects {
                // The step it fails in, the step holding it, the step after it: consequences.
                #expect(
                    !["Open the feed › Show the feed", "Open the feed", "Close the feed"].contains(suspect.name),
                    "\(test): \(suspect.name) is a consequence of the failure")
            }
        }
    }

    @Test func aTimedOutCheckComesFirstWithItsTimeout() throws {
        let test = try #require(Self.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let report = report(test)
        let first = try #require(report.suspects.first)
        #expect(first.kind == .predicate && first.name == "spinner hidden")
        #expect(first.failing.count >= 5 && first.passing.share < 0.2)
        #expect(first.timeout == 2)
        // Passing attempts hold well inside 2 s: no longer timeout is called for.
        #expect(first.suggestedTimeout == nil)
        #expect(first.evidence.hasPrefix("timed out in") && first.evidence.contains("passing attempts held within"))
        if let duration = report.suspects.firstIndex(where: { $0.kind == .duration }) {
            #expect(duration == report.suspects.count - 1)
        }
    }

    /// Attempts of `Open › Load` with a check inside it: in failing ones the check waits long and
    /// the step with it, then the attempt fails in `Open › Show`.
    static func nested(failing: Bool, index: Int, waits: Double) -> AttemptEvidence {
        let start = Double(index) * 100
        let load = failing ? 1.5 + Double(index % 3) * 0.1 : 0.2 + Double(index % 5) * 0.02
        let wait = failing ? load - 0.05 : waits
        var steps: [AttemptEvidence.Step] = [
            .init(path: ["Open"], startedAt: start, endedAt: start + load + 1, outcome: failing ? .failed : .passed),
            .init(path: ["Open", "Load"], startedAt: start, endedAt: start + load, outcome: .passed),
        ]
        steps.append(
            .init(
                path: ["Open", "Show"], startedAt: start + load, endedAt: start + load + 1,
                outcome: failing ? .failed : .passed))
        return AttemptEvidence(
            run: "r\(index)", attempt: 1, outcome: failing ? .failed : .passed, startedAt: start, duration: load + 1,
            steps: steps,
            checks: [
                .init(
                    name: "spinner hidden", expect: .holds, held: true, waited: wait, timeout: 2, at: start + wait,
                    stepPath: ["Open", "Load"])
            ],
            issues: failing ? [.init(at: start + load + 0.5, message: "not shown", file: "F.swift", line: 9)] : [])
    }

    @Test func aCheckRanksAboveTheStepThatContainsItAndTheDurationLast() throws {
        let attempts = (0..<40).map { Self.nested(failing: $0 % 4 == 0, index: $0, waits: 0.1 + Double($0 % 7) * 0.01) }
        let report = CulpritAnalysis.report(test: "T/t", configuration: "*", attempts: attempts, runs: 40)
        let names = report.suspects.map(\.name)
        let check = try #require(names.firstIndex(of: "spinner hidden"), "\(names)")
        let step = try #require(names.firstIndex(of: "Open › Load"), "\(names)")
        let duration = try #require(names.firstIndex(of: "duration"), "\(names)")
        #expect(check < step && step < duration && duration == names.count - 1)
        #expect(!names.contains("Open") && !names.contains("Open › Show"), "where it fails is no suspect")
        #expect(report.where?.activity == "Open › Show")
        let suspect = report.suspects[check]
        #expect(suspect.threshold != nil && suspect.recall == 1 && suspect.precision == 1)
    }

    @Test func undatedIssuesFailInTheInnermostFailedStep() throws {
        // Importers that know no issue's time stamp it with the attempt's start.
        let attempts = (0..<40).map { index -> AttemptEvidence in
            var attempt = Self.nested(failing: index % 4 == 0, index: index, waits: 0.1)
            attempt.issues = attempt.issues.map {
                .init(at: attempt.startedAt, message: $0.message, file: $0.file, line: $0.line)
            }
            return attempt
        }
        let report = CulpritAnalysis.report(test: "T/t", configuration: "*", attempts: attempts, runs: 40)
        #expect(report.where?.activity == "Open › Show")
        #expect(report.suspects.first?.name == "spinner hidden", "\(report.suspects.map(\.name))")
        #expect(report.suspects.contains { $0.name == "Open › Load" }, "\(report.suspects.map(\.evidence))")
    }

    @Test func whatFollowsTheFailureIsNoSuspect() throws {
        // Failing attempts fail at once and then spend long in a teardown and a second failure.
        let attempts = (0..<40).map { index -> AttemptEvidence in
            let failing = index % 4 == 0
            let start = Double(index) * 100
            var steps: [AttemptEvidence.Step] = [
                .init(path: ["Load"], startedAt: start, endedAt: start + 0.2, outcome: failing ? .failed : .passed)
            ]
            if failing {
                steps.append(.init(path: ["Tear down"], startedAt: start + 0.3, endedAt: start + 9, outcome: .failed))
            }
            return AttemptEvidence(
                run: "r\(index)", attempt: 1, outcome: failing ? .failed : .passed, startedAt: start,
                duration: failing ? 9 : 0.2 + Double(index % 5) * 0.01, steps: steps,
                issues: failing
                    ? [
                        .init(at: start + 0.1, message: "first", file: "F.swift", line: 1),
                        .init(at: start + 5, message: "second", file: "F.swift", line: 2),
                    ] : [])
        }
        let report = CulpritAnalysis.report(test: "T/t", configuration: "*", attempts: attempts, runs: 40)
        #expect(report.verdict == .noSeparation, "\(report.suspects.map(\.name))")
        #expect(report.where?.activity == "Load" && report.where?.line == 1 && report.where?.message == "first")
    }

    @Test func whereIsTheSameOnEveryRunWhenPlacesTie() {
        let attempts = (0..<10).map { index in
            AttemptEvidence(
                run: "r\(index)", attempt: 1, outcome: .failed, startedAt: 0, duration: 1,
                issues: [
                    .init(at: 0.5, message: "m\(index % 2)", file: index % 2 == 0 ? "A.swift" : "B.swift", line: 1)
                ])
        }
        let report = CulpritAnalysis.report(test: "T/t", configuration: "*", attempts: attempts, runs: 10)
        // Five each: the newest attempt's place (the last, at the same start).
        #expect(report.where?.file == "B.swift" && report.where?.message == "m1" && report.where?.attempts == 5)
    }

    @Test func nothingSeparatesAttemptsThatFailAtRandom() {
        var attempts: [AttemptEvidence] = []
        var numbers = SeededNumbers(seed: 3)
        for run in 0..<60 {
            let fails = numbers.chance(0.3)
            attempts.append(
                AttemptEvidence(
                    run: "run-\(run)", attempt: 1, outcome: fails ? .failed : .passed, startedAt: Double(run),
                    duration: 0.5 + Double(numbers.below(100)) / 100, host: "mac-\(numbers.below(3))",
                    preceding: "Other/test\(numbers.below(5))",
                    steps: [.init(path: ["Load"], startedAt: Double(run), endedAt: Double(run) + 0.1, outcome: .passed)]
                ))
        }
        let report = CulpritAnalysis.report(test: "T/t", configuration: "", attempts: attempts, runs: 60)
        #expect(report.verdict == .noSeparation, "\(report.suspects.map(\.name))")
        #expect(report.compared.contains("hosts") && report.compared.contains("1 step(s)"))
    }

    @Test func fisherTailMatchesTheHypergeometric() {
        // 5 failing attempts of 60, a feature in exactly those: 1 / C(60, 5).
        let p = Separation.fisherRightTail(failingWith: 5, failing: 5, passingWith: 0, passing: 55)
        #expect(abs(p - 1 / 5_461_512) < 1e-12)
        #expect(Separation.fisherRightTail(failingWith: 0, failing: 5, passingWith: 10, passing: 55) == 1)
        // Against the exact hypergeometric sums.
        #expect(
            abs(Separation.fisherRightTail(failingWith: 3, failing: 4, passingWith: 1, passing: 4) - 0.242857) < 1e-6)
        #expect(
            abs(Separation.fisherRightTail(failingWith: 7, failing: 10, passingWith: 4, passing: 50) - 8.32515e-5)
                < 1e-9)
        #expect(
            abs(Separation.fisherRightTail(failingWith: 10, failing: 12, passingWith: 20, passing: 48) - 0.0105726)
                < 1e-7)
    }

    @Test func aPresenceThatCannotQualifyIsNotCountedAgainstTheOthers() {
        let criteria = CulpritAnalysis.Criteria()
        // In every attempt, or in too few to reach half the failures: never a suspect.
        #expect(
            !CulpritAnalysis.couldQualify(
                .init(failingWith: 10, failingSeen: 10, passingWith: 50, passingSeen: 50), criteria))
        #expect(
            !CulpritAnalysis.couldQualify(
                .init(failingWith: 2, failingSeen: 10, passingWith: 1, passingSeen: 50), criteria))
        #expect(
            CulpritAnalysis.couldQualify(
                .init(failingWith: 1, failingSeen: 10, passingWith: 6, passingSeen: 50), criteria))
    }
}
