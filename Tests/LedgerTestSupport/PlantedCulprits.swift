import Foundation
import LedgerCore

/// A CI history in which each flaky test fails for one planted cause, hidden among decoy steps,
/// checks and captures and among the failure's own consequences (the step it fails in is marked
/// failed, the step after it never runs): what the culprit report must find. The strength of each
/// cause and the decoys' noise vary from test to test; the same seed gives the same history.
public struct PlantedCulprits: Sendable {
    /// A planted cause, and the suspect the report should name first.
    public enum Cause: String, CaseIterable, Sendable {
        case slowerStep, missingStep, checkTimesOut, checkNearTimeout, capturedValue, precedingTest, host
        case configuration, firstTry, duration

        /// The kind of the suspect it should give.
        public var kind: CulpritReport.Kind {
            switch self {
            case .slowerStep, .missingStep: .activity
            case .checkTimesOut, .checkNearTimeout: .predicate
            case .capturedValue: .capture
            case .precedingTest: .precedingTest
            case .host: .host
            case .configuration: .configuration
            case .firstTry: .attempt
            case .duration: .duration
            }
        }
    }

    /// What a generated test is.
    public enum Planted: Hashable, Sendable {
        /// Fails for this cause.
        case cause(Cause)
        /// Never fails.
        case stable
        /// Fails in exactly two runs.
        case twoFailures
    }

    /// The expected first suspect of each cause: its kind and name.
    public static func expected(_ cause: Cause, precededBy partner: String) -> (CulpritReport.Kind, String) {
        switch cause {
        case .slowerStep: (.activity, "Open the feed › Load the feed")
        case .missingStep: (.activity, "Warm the cache")
        case .checkTimesOut, .checkNearTimeout: (.predicate, "spinner hidden")
        case .capturedValue: (.capture, #"AlertVerifier.title = "Network error""#)
        case .precedingTest: (.precedingTest, partner)
        case .host: (.host, "mac-3")
        case .configuration: (.configuration, "iPad / iOS 18")
        case .firstTry: (.attempt, "first try")
        case .duration: (.duration, "duration")
        }
    }

    /// Each test's id and what was planted in it, in a fixed order.
    public private(set) var tests: [(id: String, planted: Planted)] = []
    /// The test a `precedingTest` test fails after, by test id.
    public private(set) var partners: [String: String] = [:]
    /// Each run's id, in order, oldest first.
    public private(set) var runIDs: [String] = []
    /// Each test's attempts over the history, oldest first.
    public private(set) var attempts: [String: [AttemptEvidence]] = [:]
    /// Each run's attempts in the order they ran, with their test ids.
    public private(set) var runs: [[(test: String, evidence: AttemptEvidence)]] = []
    /// Each run's start, host and configuration.
    public private(set) var runInfo: [(start: Double, host: String, configuration: String)] = []

    /// Generates a history.
    /// - Parameters:
    ///   - seed: where the chance comes from.
    ///   - runCount: how many runs.
    ///   - variants: how many tests of each cause, each with its own strength and noise.
    public init(seed: UInt64 = 11, runs runCount: Int = 60, variants: Int = 3) {
        var numbers = SeededNumbers(seed: seed)
        var strengths: [String: (strength: Double, rate: Double, noise: Double)] = [:]
        for variant in 0..<variants {
            for cause in Cause.allCases {
                let id =
                    "FeedTests.\(cause.rawValue.prefix(1).uppercased() + cause.rawValue.dropFirst())Tests/test\(variant)"
                tests.append((id, .cause(cause)))
                strengths[id] = (
                    0.8 + 0.2 * Double(numbers.below(100)) / 100, 0.2 + 0.25 * Double(numbers.below(100)) / 100,
                    0.05 + 0.25 * Double(numbers.below(100)) / 100
                )
            }
            tests.append(("FeedTests.StableTests/test\(variant)", .stable))
            tests.append(("FeedTests.RareTests/test\(variant)", .twoFailures))
        }
        for (index, test) in tests.enumerated() where test.planted == .cause(.precedingTest) {
            partners[test.id] = tests[(index + 2) % tests.count].id
        }
        var rareRuns: [String: Set<Int>] = [:]
        for test in tests where test.planted == .twoFailures {
            var chosen = Set<Int>()
            while chosen.count < 2 { chosen.insert(numbers.below(runCount)) }
            rareRuns[test.id] = chosen
        }

        for run in 0..<runCount {
            let id = String(format: "00000000-0000-4000-9000-%012d", run)
            runIDs.append(id)
            let start = 1_790_000_000.0 + Double(run) * 3_600
            let host = "mac-\(1 + numbers.below(4))"
            let configuration = numbers.chance(0.5) ? "iPad / iOS 18" : "iPhone 16 / iOS 18"
            runInfo.append((start, host, configuration))
            var order = tests.map(\.id)
            for index in order.indices.reversed() {
                order.swapAt(index, numbers.below(index + 1))
            }
            for (test, partner) in partners.sorted(by: { $0.key < $1.key }) {
                order.removeAll { $0 == test }
                let after = order.firstIndex(of: partner) ?? 0
                // A third of the runs have it right after its partner; the others never do.
                order.insert(test, at: numbers.chance(0.35) ? after + 1 : (after == 0 ? order.count : 0))
            }
            var clock = start
            var ran: [(test: String, evidence: AttemptEvidence)] = []
            var retries: [String] = []
            let planted = Dictionary(uniqueKeysWithValues: tests.map { ($0.id, $0.planted) })
            func play(_ test: String, attempt: Int) -> Bool {
                let context = Context(
                    run: id, attempt: attempt, host: host, configuration: configuration,
                    preceding: ran.last { $0.test != test }?.test, partner: partners[test],
                    rareRun: rareRuns[test]?.contains(run) ?? false)
                let evidence = Self.attempt(
                    planted[test] ?? .stable, context, strengths[test] ?? (1, 0.3, 0.1), at: clock, &numbers)
                clock += (evidence.duration ?? 0) + 0.01
                ran.append((test, evidence))
                attempts[test, default: []].append(evidence)
                return evidence.isFailing
            }
            for test in order where play(test, attempt: 1) && numbers.chance(0.6) { retries.append(test) }
            // Retries run after the suite, as `record --retries` runs them: up to two more tries.
            for test in retries {
                var attempt = 2
                while play(test, attempt: attempt), attempt < 3 { attempt += 1 }
            }
            runs.append(ran)
        }
    }

    private struct Context {
        var run: String
        var attempt: Int
        var host: String
        var configuration: String
        var preceding: String?
        var partner: String?
        var rareRun: Bool
    }

    private static func attempt(
        _ planted: Planted, _ context: Context, _ knobs: (strength: Double, rate: Double, noise: Double),
        at start: Double,
        _ numbers: inout SeededNumbers
    ) -> AttemptEvidence {
        func uniform(_ low: Double, _ high: Double) -> Double {
            low + (high - low) * Double(numbers.below(1_000)) / 1_000
        }
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
        let cause: Cause? = if case .cause(let cause) = planted { cause } else { nil }
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
        let show = clock
        var issues: [AttemptEvidence.Issue] = []
        if fails {
            // The test as a whole waits out a timeout inside the step it fails in.
            clock += cause == .duration && shows ? uniform(8, 12) : uniform(0.05, 0.3)
            issues.append(
                .init(
                    at: clock, message: "XCTAssertTrue failed - the feed is not shown", file: "Tests/FeedTests.swift",
                    line: 42))
            steps.append(
                .init(path: ["Open the feed", "Show the feed"], startedAt: show, endedAt: clock, outcome: .failed))
            steps[steps.firstIndex { $0.path == ["Open the feed"] } ?? 0].outcome = .failed
        } else {
            clock += uniform(0.05, 0.3)
            steps.append(
                .init(path: ["Open the feed", "Show the feed"], startedAt: show, endedAt: clock, outcome: .passed))
            steps[steps.firstIndex { $0.path == ["Open the feed"] } ?? 0].outcome = .passed
        }
        steps[steps.firstIndex { $0.path == ["Open the feed"] } ?? 0].endedAt = clock
        if !fails {
            step(["Close the feed"], uniform(0.02, 0.1))
            clock += 0.1
        }
        return AttemptEvidence(
            run: context.run, attempt: context.attempt, outcome: fails ? .failed : .passed, startedAt: start,
            duration: clock - start, configuration: context.configuration, host: context.host,
            preceding: context.preceding, steps: steps, checks: checks, captures: captures, issues: issues)
    }
}
