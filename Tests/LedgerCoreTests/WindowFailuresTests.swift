import LedgerTestSupport
import Testing

@testable import LedgerCore

/// The window's failures, kept as bits per test, count co-failures as the names would: on random
/// windows across word boundaries, from runs of one window and from runs made by hand alike.
@Suite struct WindowFailuresTests {
    /// A window of `runs` runs over `tests` tests, each failing at its own rate.
    static func window(_ random: inout SeededNumbers, runs: Int, tests: Int) -> [[String]] {
        let rates = (0..<tests).map { _ in Double.random(in: 0..<0.6, using: &random) }
        return (0..<runs).map { _ in
            (0..<tests).filter { Double.random(in: 0..<1, using: &random) < rates[$0] }.map { "t\($0)" }.shuffled(
                using: &random)
        }
    }

    /// Each other test's runs with the compared test failing and passing, name by name.
    static func reference(_ failed: [[String]], own: String, runs: [(failing: Bool, run: Int)]) -> [String: [Int]] {
        var counts: [String: [Int]] = [:]
        for (failing, run) in runs {
            for test in failed[run] where test != own { counts[test, default: [0, 0]][failing ? 0 : 1] += 1 }
        }
        return counts
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func togetherCountsAsTheNamesWould(seed: UInt64) {
        var random = SeededNumbers(seed: seed)
        for _ in 0..<20 {
            let failed = Self.window(
                &random, runs: Int.random(in: 1...150, using: &random), tests: .random(in: 1...30, using: &random))
            let window = WindowFailures(failed: failed)
            let own = "t\(Int.random(in: 0..<35, using: &random))"
            // Some runs on one side, some on both (a failure then a passing retry), some on neither.
            var compared: [(failing: Bool, run: Int)] = []
            for run in failed.indices {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: compared.append((true, run))
                case 1: compared.append((false, run))
                case 2: compared += [(true, run), (false, run)]
                default: break
                }
            }
            let expected = Self.reference(failed, own: own, runs: compared)
            let shared = WindowFailures.together(
                compared.map { ($0.failing, WindowFailures.Run(window, run: $0.run, excluding: own)) })
            let byHand = WindowFailures.together(
                compared.map { ($0.failing, WindowFailures.Run(failed: Set(failed[$0.run]).subtracting([own]))) })
            for found in [shared, byHand] {
                #expect(
                    Dictionary(uniqueKeysWithValues: found.map { ($0.test, [$0.failing, $0.passing]) }) == expected)
                #expect(Set(found.map(\.test)).count == found.count)
                #expect(!found.contains { $0.test == own })
            }
            // A run seen as a set names the other tests that failed in it.
            for run in failed.indices.shuffled(using: &random).prefix(3) {
                #expect(
                    WindowFailures.Run(window, run: run, excluding: own).tests == Set(failed[run]).subtracting([own]))
            }
        }
    }

    /// A report whose attempts share one window is the report of the same attempts given the other
    /// tests' failures as sets, made by hand: the co-failures, the cluster named and the correction.
    @Test(arguments: [7, 8, 9])
    func aSharedWindowReportsAsSetsMadeByHand(seed: UInt64) {
        var random = SeededNumbers(seed: seed)
        let runs = 90
        // A lockstep cluster with the compared test, other tests failing at random.
        let cluster = (0..<Int.random(in: 2...12, using: &random)).map { "cluster\($0)" }
        var failed = Self.window(&random, runs: runs, tests: 25)
        var attempts: [AttemptEvidence] = []
        for run in 0..<runs {
            let failing = Double.random(in: 0..<1, using: &random) < 0.3
            if failing { failed[run] += ["compared"] + cluster }
            attempts.append(
                AttemptEvidence(
                    run: "r\(run)", attempt: 1, outcome: failing ? .failed : .passed, startedAt: Double(run) * 100,
                    duration: 1))
            if failing, Bool.random(using: &random) {
                attempts.append(
                    AttemptEvidence(
                        run: "r\(run)", attempt: 2, outcome: .passed, startedAt: Double(run) * 100 + 2, duration: 1))
            }
        }
        let window = WindowFailures(failed: failed)
        var shared = attempts
        var byHand = attempts
        for index in attempts.indices {
            let run = Int(attempts[index].run.dropFirst())!
            shared[index].failedInRun = WindowFailures.Run(window, run: run, excluding: "compared")
            byHand[index].failedBeside = Set(failed[run]).subtracting(["compared"])
        }
        let fromWindow = CulpritAnalysis.report(test: "compared", configuration: "*", attempts: shared, runs: runs)
        let fromSets = CulpritAnalysis.report(test: "compared", configuration: "*", attempts: byHand, runs: runs)
        #expect(fromWindow == fromSets)
        #expect(fromWindow.verdict == .suspects)
        #expect(Set(fromWindow.suspects.filter { $0.kind == .coFailure }.map(\.name)) == Set(cluster))
        #expect(fromWindow.suspects.first?.evidence.hasSuffix(cluster.sorted().joined(separator: ", ")) == true)
        #expect(
            CulpritAnalysis.brief(test: "compared", configuration: "*", attempts: shared, runs: runs)
                == fromSets.brief)
    }
}
