import LedgerCore

extension PlantedCulprits {
    /// Where an attempt runs.
    struct Context {
        var run: String
        var attempt: Int
        var host: String
        var configuration: String
        var preceding: String?
        var partner: String?
        var rareRun: Bool
    }

    /// What the generator decided for one attempt, before it is written down.
    struct Decision {
        var planted: Planted
        /// How it fails; `nil` for a pass.
        var failure: Failure?
        /// Whether the planted cause shows in it (a slow step, a timed-out check…).
        var shows: Bool
    }

    /// Whether the attempt fails, how, and whether its planted cause shows: from the planted
    /// cause's chances alone, never from the attempt's evidence.
    static func decide(_ planted: Planted, _ context: Context, _ knobs: Knobs, _ numbers: inout SeededNumbers)
        -> Decision
    {
        var fails = false
        var shows = false
        switch planted {
        case .stable:
            break
        case .twoFailures:
            fails = context.rareRun && context.attempt == 1
        case .cause(let cause):
            switch cause {
            case .precedingTest:
                fails = numbers.chance(context.preceding == context.partner ? knobs.strength : 0.01)
            case .host:
                fails = numbers.chance(context.host == "mac-3" ? knobs.strength : 0.01)
            case .configuration:
                fails = numbers.chance(context.configuration == "iPad / iOS 18" ? knobs.strength * 0.6 : 0.01)
            case .firstTry:
                fails = context.attempt == 1 && numbers.chance(0.4 + knobs.rate)
            default:
                fails = numbers.chance(knobs.rate)
                shows = numbers.chance(fails ? knobs.strength : knobs.noise * 0.3)
            }
        }
        guard fails else { return Decision(planted: planted, failure: nil, shows: shows) }
        // Most fail an assertion; some throw, crash their process or never end (a run cut short).
        let way = numbers.below(100)
        let failure: Failure = way < 74 ? .failed : way < 85 ? .erred : way < 96 ? .crashed : .neverEnded
        return Decision(planted: planted, failure: failure, shows: shows)
    }

    /// The attempt's evidence as an observer would record it: decoy steps, checks and captures,
    /// the planted cause where it shows, and the failure as decided.
    static func attempt(
        _ decision: Decision, _ context: Context, _ knobs: Knobs, at start: Double, _ numbers: inout SeededNumbers
    ) -> AttemptEvidence {
        func uniform(_ low: Double, _ high: Double) -> Double {
            low + (high - low) * Double(numbers.below(1_000)) / 1_000
        }
        let cause: Cause? = if case .cause(let cause) = decision.planted { cause } else { nil }
        let shows = decision.shows
        var clock = start
        var steps: [AttemptEvidence.Step] = []
        var checks: [AttemptEvidence.Check] = []
        var captures: [AttemptEvidence.Capture] = []
        func step(_ path: [String], _ seconds: Double, outcome: Outcome? = .passed) {
            steps.append(.init(path: path, startedAt: clock, endedAt: clock + seconds, outcome: outcome))
        }
        // Decoys: a login of varying length, a check whose margin wanders, a value that changes.
        step(["Log in"], uniform(0.05, 0.2 + knobs.noise))
        clock += steps.last.map { ($0.endedAt ?? clock) - $0.startedAt } ?? 0
        if !(cause == .missingStep && shows) {
            step(["Warm the cache"], uniform(0.01, 0.05))
            clock += 0.05
        }
        let open = clock
        let loadSeconds = cause == .slowerStep && shows ? uniform(1.2, 3) : uniform(0.2, 0.6 + knobs.noise)
        steps.append(.init(path: ["Open the feed"], startedAt: open, endedAt: nil, outcome: nil))
        steps.append(
            .init(
                path: ["Open the feed", "Load the feed"], startedAt: clock, endedAt: clock + loadSeconds,
                outcome: .passed))
        let margin: Double
        let held: Bool
        switch cause {
        case .checkTimesOut where shows: (margin, held) = (1, false)
        case .checkNearTimeout where shows: (margin, held) = (uniform(0.86, 0.99), true)
        default: (margin, held) = (uniform(0.05, 0.3 + knobs.noise), true)
        }
        checks.append(
            .init(
                name: "spinner hidden", expect: .holds, held: held, waited: margin * 2, timeout: 2,
                at: clock + min(loadSeconds, margin * 2), stepPath: ["Open the feed", "Load the feed"]))
        clock += max(loadSeconds, margin * 2)
        steps[steps.count - 1].endedAt = clock
        checks.append(
            .init(
                name: "toast gone", expect: .doesntHold, held: true, waited: uniform(0, 1.5), timeout: 2, at: clock,
                stepPath: ["Open the feed"]))
        captures.append(
            .init(
                verifier: "AlertVerifier",
                fields: .object([
                    "title": .string(cause == .capturedValue && shows ? "Network error" : "Saved"),
                    "animated": .bool(numbers.chance(0.5)),
                ]), at: clock, stepPath: ["Open the feed"]))
        var attempt = AttemptEvidence(
            run: context.run, attempt: context.attempt, outcome: .passed, startedAt: start, duration: nil,
            configuration: context.configuration, host: context.host, preceding: context.preceding, steps: steps,
            checks: checks, captures: captures)
        let show = clock
        if let failure = decision.failure {
            // The test as a whole waits out a timeout inside the step it fails in.
            clock += cause == .duration && shows ? uniform(8, 12) : uniform(0.05, 0.3)
            fail(&attempt, failure, showStartedAt: show, at: clock)
        } else {
            clock += uniform(0.05, 0.3)
            attempt.steps.append(
                .init(path: ["Open the feed", "Show the feed"], startedAt: show, endedAt: clock, outcome: .passed))
            let open = attempt.steps.firstIndex { $0.path == ["Open the feed"] } ?? 0
            (attempt.steps[open].outcome, attempt.steps[open].endedAt) = (.passed, clock)
            attempt.steps.append(
                .init(path: ["Close the feed"], startedAt: clock, endedAt: clock + uniform(0.02, 0.1), outcome: .passed)
            )
            clock += 0.1
        }
        if attempt.outcome != nil { attempt.duration = clock - start }
        return attempt
    }

    /// Ends `attempt` in `failure` at `time`, in the step `Open the feed › Show the feed` that
    /// started at `show`: an assertion or an error recorded there, or a crash or a cut-short run
    /// that leaves the steps unended and records nothing.
    private static func fail(
        _ attempt: inout AttemptEvidence, _ failure: Failure, showStartedAt show: Double, at time: Double
    ) {
        let ends = failure == .failed || failure == .erred
        attempt.steps.append(
            .init(
                path: ["Open the feed", "Show the feed"], startedAt: show, endedAt: ends ? time : nil,
                outcome: ends ? .failed : nil))
        let open = attempt.steps.firstIndex { $0.path == ["Open the feed"] } ?? 0
        if ends { (attempt.steps[open].outcome, attempt.steps[open].endedAt) = (.failed, time) }
        switch failure {
        case .failed:
            attempt.outcome = .failed
            attempt.issues = [
                .init(
                    at: time, message: "XCTAssertTrue failed - the feed is not shown", file: "Tests/FeedTests.swift",
                    line: 42)
            ]
        case .erred:
            attempt.outcome = .error
            attempt.issues = [.init(at: time, message: "Error: the request timed out", file: nil, line: nil)]
        case .crashed:
            attempt.outcome = .crashed
            attempt.message = "Fatal error: Unexpectedly found nil while unwrapping an Optional value"
        case .neverEnded:
            attempt.outcome = nil
        }
    }
}
