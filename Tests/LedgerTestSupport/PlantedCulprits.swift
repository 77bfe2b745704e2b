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

    /// How a failing attempt fails, as the generator decides it.
    public enum Failure: String, CaseIterable, Sendable {
        /// An assertion failed.
        case failed
        /// The test threw an error.
        case erred
        /// Its process crashed while it ran: its steps never ended.
        case crashed
        /// It never ended: the run was cut short while it ran.
        case neverEnded
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
    /// Each test's attempts as the generator decided them, oldest first: how each failing one
    /// failed, `nil` for a pass. Tests read this, not the attempts' outcomes, to know which failed.
    public private(set) var decided: [String: [Failure?]] = [:]
    /// The runs (by index) cut short by an attempt that never ended: they have no end.
    public private(set) var cutShort: Set<Int> = []

    /// The knobs of one planted test: how strongly its cause shows, how often it fails, how noisy
    /// its decoys are.
    typealias Knobs = (strength: Double, rate: Double, noise: Double)

    /// Generates a history.
    /// - Parameters:
    ///   - seed: where the chance comes from.
    ///   - runCount: how many runs.
    ///   - variants: how many tests of each cause, each with its own strength and noise.
    public init(seed: UInt64 = 11, runs runCount: Int = 60, variants: Int = 3) {
        precondition(runCount >= 12, "a rare test fails in two of the first runs, ten before the end")
        var numbers = SeededNumbers(seed: seed)
        var strengths: [String: Knobs] = [:]
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
            // Early enough that a run cut short before it ran leaves later runs to fail in.
            while chosen.count < 2 { chosen.insert(numbers.below(max(1, runCount - 10))) }
            rareRuns[test.id] = chosen
        }

        // A rare test fails in its chosen runs, or in the next it runs in when one was cut short first.
        var rareFailed: [String: Int] = [:]
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
            var ended = true
            let planted = Dictionary(uniqueKeysWithValues: tests.map { ($0.id, $0.planted) })
            func play(_ test: String, attempt: Int) -> Bool {
                let context = Context(
                    run: id, attempt: attempt, host: host, configuration: configuration,
                    preceding: ran.last { $0.test != test }?.test, partner: partners[test],
                    rareRun: (rareRuns[test]?.count { $0 <= run } ?? 0) > (rareFailed[test] ?? 0))
                let knobs = strengths[test] ?? (1, 0.3, 0.1)
                let decision = Self.decide(planted[test] ?? .stable, context, knobs, &numbers)
                let evidence = Self.attempt(decision, context, knobs, at: clock, &numbers)
                clock += (evidence.duration ?? 0) + 0.01
                ran.append((test, evidence))
                attempts[test, default: []].append(evidence)
                decided[test, default: []].append(decision.failure)
                if decision.failure != nil, planted[test] == .twoFailures { rareFailed[test, default: 0] += 1 }
                ended = decision.failure != .neverEnded
                return decision.failure != nil
            }
            for test in order where ended {
                if play(test, attempt: 1), ended, numbers.chance(0.6) { retries.append(test) }
            }
            // Retries run after the suite, as `record --retries` runs them: up to two more tries.
            for test in retries where ended {
                var attempt = 2
                while play(test, attempt: attempt), ended, attempt < 3 { attempt += 1 }
            }
            // An attempt that never ended cut its run short: nothing ran after it, and the run never ended.
            if !ended { cutShort.insert(run) }
            runs.append(ran)
        }
    }
}
