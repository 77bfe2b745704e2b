import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// The reports read per-run summaries kept at ingest; on random histories, sent in any order, in
/// pieces and twice, they must say exactly what a full recomputation from the results says.
@Suite struct ReportRecomputationTests {

    static let day = 86_400.0

    /// One run's events, cut in two at a random test so it can be sent in two ingests.
    static func run(_ index: Int, tests: Int, _ numbers: inout SeededNumbers) -> (
        first: [LedgerRecord], rest: [LedgerRecord]
    ) {
        let configuration = Bool.random(using: &numbers) ? nil : "iPhone 16"
        let revision = Int.random(in: 0..<4, using: &numbers) == 0 ? nil : "rev\(index / 3)"
        var script = RunScript(
            run: String(format: "00000000-0000-4000-8000-%012x", index), revision: revision,
            at: 1_700_000_000 + Double(index) * day
        ).start(configuration: configuration)
        // A run where most tests fail is noise.
        let noise = Int.random(in: 0..<8, using: &numbers) == 0
        var cut = 0
        let cutAt = Int.random(in: 0...tests, using: &numbers)
        for test in 0..<tests where Int.random(in: 0..<6, using: &numbers) > 0 {
            if test >= cutAt, cut == 0 { cut = script.records.count }
            let id = "\(["Demo", "DemoUITests", "DemoIntegrationTests"][test % 3]).Suite/test\(test)"
            let attempts: [Outcome]
            switch noise ? -1 : Int.random(in: 0..<12, using: &numbers) {
            case -1, 0: attempts = [.failed]
            case 1: attempts = [.failed, .passed]
            case 2: attempts = [.error, .failed]
            case 3: attempts = [.skipped]
            case 4: attempts = [.crashed, .passed]
            case 5: attempts = [.expectedFailure]
            case 6 where test % 4 == 0: attempts = [.failed, .failed, .passed]
            default: attempts = [.passed]
            }
            for (attempt, outcome) in attempts.enumerated() {
                script = script.result(
                    id, outcome, attempt: attempt + 1, duration: Double(Int.random(in: 1...500, using: &numbers)) / 100)
            }
            if test % 5 == 1 {
                let held = Int.random(in: 0..<3, using: &numbers) > 0
                let waited = held ? Double(Int.random(in: 1...100, using: &numbers)) / 100 : 1
                script = script.with(
                    .testStart(.init(at: script.clock, test: id + "/waits", attempt: 1))
                ).with(
                    .predicate(
                        .init(
                            at: script.clock, test: id + "/waits", attempt: 1, name: "spinner gone",
                            expect: test % 2 == 0 ? .holds : .doesntHold, held: held,
                            attempts: held ? Int.random(in: 1...5, using: &numbers) : 100, waited: waited, timeout: 1))
                ).with(
                    .testEnd(.init(at: script.clock, test: id + "/waits", attempt: 1, outcome: .passed, duration: 1)))
            }
        }
        let records = script.end().records
        let split = cut == 0 ? records.count : cut
        return (Array(records[..<split]), Array(records[split...]))
    }

    func expectAgreement(_ ledger: TemporaryLedger, runs: Int, seed: UInt64, after step: String) throws {
        let thresholds = FlakyThresholds()
        let now = 1_700_000_000 + Double(runs + 10) * Self.day
        for window in [3, 10, runs + 5] {
            for since in [nil, 1_700_000_000 + Double(runs / 2) * Self.day] {
                let fast = try ledger.database.flakyReport(
                    project: "Demo", runs: window, since: since, thresholds: thresholds, now: now)
                let full = try FullRecomputation.flaky(
                    ledger.database, project: "Demo", runs: window, since: since, thresholds: thresholds, now: now)
                #expect(fast == full, "seed \(seed), window \(window), since \(String(describing: since)), \(step)")
            }
        }
        let classifier = LayerClassifier()
        for since: Double? in [nil, 0, 1_700_000_000 + Double(runs / 2) * Self.day] {
            let windowRuns = try ledger.database.windowRuns(
                project: "Demo", count: since == nil ? 1 : nil, since: since)
            guard !windowRuns.isEmpty else { continue }
            let fast = try ledger.database.pyramidReport(
                project: "Demo", run: nil, since: since, classifier: classifier)
            let full = try FullRecomputation.pyramid(ledger.database, runs: windowRuns, classifier: classifier)
            #expect(fast == full, "seed \(seed), pyramid since \(String(describing: since)), \(step)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func summariesAgreeWithFullRecomputation(seed: UInt64) throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        var numbers = SeededNumbers(seed: seed)
        let runs = Int.random(in: 8...24, using: &numbers)
        let tests = Int.random(in: 4...30, using: &numbers)
        let parts = (0..<runs).map { Self.run($0, tests: tests, &numbers) }
        // Runs arrive in any order; some in two pieces, the first stored as still running; some twice.
        var sends: [(records: [LedgerRecord], keepRunning: Bool)] = []
        for index in (0..<runs).shuffled(using: &numbers) {
            let (first, rest) = parts[index]
            if rest.isEmpty || Bool.random(using: &numbers) {
                sends.append((first + rest, false))
            } else {
                sends.append((first, true))
                sends.append((rest, false))
            }
            if Int.random(in: 0..<4, using: &numbers) == 0 { sends.append((first + rest, false)) }
        }
        for (step, send) in sends.enumerated() {
            try ledger.database.ingest(keepRunning: send.keepRunning) { sink in
                for record in send.records { try sink.consume(record) }
            }
            if step % 5 == 4 { try expectAgreement(ledger, runs: runs, seed: seed, after: "send \(step)") }
        }
        try expectAgreement(ledger, runs: runs, seed: seed, after: "all sends")
        let report = try ledger.database.flakyReport(
            project: "Demo", runs: runs, since: nil, thresholds: FlakyThresholds(), now: 1_800_000_000)
        #expect(!report.flaky.isEmpty || !report.broken.isEmpty, "a history with something to find")
    }
}
