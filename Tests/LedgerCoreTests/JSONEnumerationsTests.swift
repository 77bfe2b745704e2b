import Foundation
import LedgerCore
import Testing

/// The values the JSON contracts' enumerated fields take, pinned as sets: a value renamed or
/// removed breaks a reader, and an added one is named in `CHANGELOG.md`. Each case is written by
/// `JSONEncoder`, as the reports write it.
@Suite struct JSONEnumerationsTests {
    func written<Value: Encodable>(_ values: [Value]) throws -> Set<String> {
        Set(try values.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) })
    }

    func quoted(_ values: String...) -> Set<String> { Set(values.map { "\"\($0)\"" }) }

    @Test func culpritKindsAndVerdicts() throws {
        #expect(
            try written(CulpritReport.Kind.allCases)
                == quoted(
                    "activity", "predicate", "capture", "preceding-test", "overlapping-test", "overlapping-step",
                    "co-failure", "load",
                    "host", "configuration", "attempt", "duration"))
        let verdicts: [CulpritReport.Verdict] = [.suspects, .tooFewFailures, .noSeparation]
        #expect(try written(verdicts) == quoted("suspects", "too-few-failures", "no-separation"))
    }

    @Test func runReportVerdictsOutcomesAndLayers() throws {
        #expect(
            try written(RunReport.Verdict.allCases)
                == quoted("new", "failed-before", "failing-on-base", "known-flaky", "quarantined"))
        let outcomes = try written(Outcome.allCases)
        #expect(outcomes == quoted("passed", "failed", "skipped", "error", "crashed", "expectedFailure"), "\(outcomes)")
        let layers = try written(Layer.allCases)
        #expect(layers == quoted("unit", "integration", "ui"), "\(layers)")
        #expect(try written(QuarantineMode.allCases) == quoted("mute", "skip"))
    }

    @Test func verificationVerdictsAndStandings() throws {
        #expect(
            try written(VerificationReport.Verdict.allCases)
                == quoted("fixed", "still-flaky", "inconclusive", "reproduced", "not-reproduced"))
        let sources: [VerificationReport.RateSource] = [.ledger, .flag]
        #expect(try written(sources) == quoted("ledger", "flag"))
        #expect(
            try written(TestStanding.Standing.allCases)
                == quoted(
                    "healthy", "flaky", "broken", "quarantined", "unknown", "fix-pending", "fix-landed", "regressed"))
        #expect(TestStanding.Standing.allCases.map(\.exitStatus) == [0, 10, 11, 12, 13, 14, 15, 16])
        #expect(
            try written(RecordedFix.State.allCases) == quoted("fix-pending", "fix-landed", "released", "regressed"))
        #expect(
            try written(TestNotification.Event.allCases)
                == quoted("became-flaky", "broken-on-default", "quarantined", "released", "fix-landed", "regressed"))
    }

    @Test func predicateAndPyramidVerdicts() throws {
        let predicates: [PredicateFinding.Verdict] = [.flaky, .atRisk, .broken, .vacuous]
        #expect(try written(predicates) == quoted("flaky", "at-risk", "broken", "vacuous"))
        let shapes: [PyramidVerdict] = [.pyramid, .iceCreamCone, .hourglass, .diamond, .uneven, .empty]
        #expect(
            try written(shapes) == quoted("pyramid", "ice-cream-cone", "hourglass", "diamond", "uneven", "empty"))
    }
}
