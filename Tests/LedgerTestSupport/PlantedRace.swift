import LedgerCore

/// A parallel suite's history in which one test races another through shared state: the
/// racing test flips a remote-config value at the start of its step "Refresh at launch" and
/// restores it when it ends; the flaky test reads the value as its step "Quote the family room"
/// starts, and fails when it finds it flipped. Decoy tests read and write the same value
/// harmlessly beside them. A failed first try is retried alone and passes.
///
/// With `racing: false` the flaky test fails at random instead, beside the same neighbours.
public struct PlantedRace: Sendable {
    public static let flaky = "ShopTests.QuoteTests/quotesTheFamilyRoom()"
    public static let racing = "ShopTests.RemoteConfigTests/launchRefreshesFlags()"
    public static let decoys = [
        "ShopTests.PricingTests/readsTheFlag()", "ShopTests.SettingsTests/resetsTheFlag()",
        "ShopTests.CatalogueTests/loadsRooms()",
    ]
    public static let failingStep = "Quote the family room"
    public static let racingStep = "Refresh at launch"

    /// The flaky test's attempts, oldest first, with their company.
    public private(set) var attempts: [AttemptEvidence] = []

    /// - Parameters:
    ///   - seed: the numbers' seed.
    ///   - runs: how many runs.
    ///   - racing: whether the flaky test fails because of the race, or at random (30 %).
    public init(seed: UInt64, runs: Int = 30, racing: Bool = true) {
        var numbers = SeededNumbers(seed: seed)
        for run in 0..<runs {
            let base = Double(run) * 100
            let uniform = { (low: Double, high: Double) in
                low + (high - low) * Double(numbers.next() >> 11) / Double(1 << 53)
            }
            let racer = Self.attempt(
                Self.racing, at: base + uniform(0, 0.05),
                steps: [
                    ("Start the app", uniform(0.02, 0.08)), (Self.racingStep, uniform(0.03, 0.08)),
                    ("Check the flags", uniform(0.02, 0.06)),
                ])
            let decoys = Self.decoys.map { test in
                Self.attempt(
                    test, at: base + uniform(0, 0.03),
                    steps: [("Read the flag", uniform(0.05, 0.1)), ("Set the flag to its default", uniform(0.1, 0.2))])
            }
            let start = base + uniform(0, 0.05)
            let loaded = start + uniform(0.05, 0.35)
            let reads = loaded + 0.005
            let flipped = racer.steps[1].startedAt <= reads && reads <= (racer.endedAt ?? .infinity)
            let fails = racing ? flipped : numbers.chance(0.3)
            let company = ([racer] + decoys).filter { other in
                other.startedAt < reads + 1 && (other.endedAt ?? .infinity) > start
            }
            attempts.append(
                Self.flakyAttempt(
                    run: "run-\(run)", attempt: 1, start: start, loaded: loaded, quoteLength: uniform(0.03, 0.06),
                    failsAt: fails ? reads + 0.001 : nil, company: company))
            if fails {
                attempts.append(
                    Self.flakyAttempt(
                        run: "run-\(run)", attempt: 2, start: base + 50, loaded: base + 50.1, quoteLength: 0.04,
                        failsAt: nil, company: []))
            }
        }
    }

    private static func attempt(_ test: String, at start: Double, steps: [(String, Double)])
        -> AttemptEvidence.Company
    {
        var at = start + 0.005
        var made: [AttemptEvidence.Step] = []
        for (name, length) in steps {
            made.append(.init(path: [name], startedAt: at, endedAt: at + length, outcome: .passed))
            at += length + 0.002
        }
        return AttemptEvidence.Company(test: test, startedAt: start, endedAt: at + 0.005, steps: made)
    }

    private static func flakyAttempt(
        run: String, attempt: Int, start: Double, loaded: Double, quoteLength: Double, failsAt: Double?,
        company: [AttemptEvidence.Company]
    ) -> AttemptEvidence {
        let quoteStart = loaded + 0.001
        let quoteEnd = failsAt.map { $0 + 0.002 } ?? quoteStart + quoteLength
        var evidence = AttemptEvidence(
            run: run, attempt: attempt, outcome: failsAt == nil ? .passed : .failed, startedAt: start,
            duration: quoteEnd + 0.001 - start,
            steps: [
                .init(path: ["Load the catalogue"], startedAt: start + 0.001, endedAt: loaded, outcome: .passed),
                .init(
                    path: [failingStep], startedAt: quoteStart, endedAt: quoteEnd,
                    outcome: failsAt == nil ? .passed : .failed),
            ],
            issues: failsAt.map {
                [.init(at: $0, message: "expected 450, got 495", file: "QuoteTests.swift", line: 31)]
            }
                ?? [])
        evidence.company = company
        evidence.beside = company.flatMap { other in
            [
                AttemptEvidence.Neighbour(test: other.test, event: .started, at: other.startedAt),
                AttemptEvidence.Neighbour(test: other.test, event: .ended, at: other.endedAt ?? .infinity),
            ]
            .filter { $0.at > start && $0.at < start + (evidence.duration ?? 0) }
        }
        evidence.failedBeside = []
        return evidence
    }
}
