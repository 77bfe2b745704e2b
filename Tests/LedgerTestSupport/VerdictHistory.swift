import Foundation
import LedgerCore

/// A generated history whose next run's failures get every `report run` verdict: earlier runs of
/// one configuration (on the base branch, or on no branch at all), then the next run. Planted
/// tests among a seeded number of stable ones, in a seeded order in each run:
/// - `App.Cart/new` never failed before: new;
/// - `App.Cart/before` failed only the oldest run: failed before;
/// - `App.Cart/onBase` failed only the newest earlier run: failing on base too;
/// - `App.Cart/broken` failed the last 4 earlier runs (broken by `report flaky`): failing on base
///   too, with its streak as evidence;
/// - `App.Cart/flaky` flips P F P F … and failed the newest earlier run: known flaky;
/// - `App.Cart/quarantined`, failing here, is to be quarantined: quarantined;
/// - `App.Cart/fixed` failed the newest earlier run and passes here: fixed.
public struct VerdictHistory: Sendable {
    /// The test each verdict is planted on, by the verdict's JSON name.
    public static let planted: [String: [String]] = [
        "new": ["App.Cart/new"], "failed-before": ["App.Cart/before"],
        "failing-on-base": ["App.Cart/broken", "App.Cart/onBase"], "known-flaky": ["App.Cart/flaky"],
        "quarantined": ["App.Cart/quarantined"],
    ]
    /// The test to quarantine before the next run is judged.
    public static let quarantined = "App.Cart/quarantined"
    /// The test the next run fixes.
    public static let fixed = "App.Cart/fixed"

    /// How many runs come before the next one.
    public let earlierRuns: Int
    /// Every test of every run, planted and stable.
    public let tests: [String]
    private var numbers: SeededNumbers

    /// - Parameters:
    ///   - seed: where the number of stable tests and each run's order come from.
    ///   - earlierRuns: how many runs come before the next one; 8 or more keep `App.Cart/before`
    ///     (one failure) from flipping often enough to be flaky.
    public init(seed: UInt64 = 26, earlierRuns: Int = 8) {
        numbers = SeededNumbers(seed: seed)
        self.earlierRuns = earlierRuns
        let stable = (0..<(6 + numbers.below(10))).map { "App.Stable/test\($0)" }
        tests = stable + Self.planted.values.flatMap { $0 } + [Self.fixed]
    }

    /// The verdict each failure of the next run should get, by test.
    public var verdicts: [String: String] {
        Dictionary(uniqueKeysWithValues: Self.planted.flatMap { verdict, tests in tests.map { ($0, verdict) } })
    }

    /// The tests run `index` fails; `earlierRuns` is the next run.
    public func failing(run index: Int) -> Set<String> {
        guard index < earlierRuns else { return Set(verdicts.keys) }
        var failing: Set<String> = []
        if index == 0 { failing.insert("App.Cart/before") }
        if index == earlierRuns - 1 { failing.formUnion(["App.Cart/onBase", Self.fixed]) }
        if index >= earlierRuns - 4 { failing.insert("App.Cart/broken") }
        if (earlierRuns - 1 - index) % 2 == 0 { failing.insert("App.Cart/flaky") }
        return failing
    }

    /// Each run's tests in a seeded order, with whether each fails; `earlierRuns` is the next run.
    public mutating func results(run index: Int) -> [(test: String, failed: Bool)] {
        let failing = failing(run: index)
        return tests.shuffled(using: &numbers).map { ($0, failing.contains($0)) }
    }

    /// Run `index` as Ledger events.
    public mutating func script(run index: Int, project: String, branch: String?, at start: Double) -> RunScript {
        var script = RunScript(run: String(format: "00000000-0000-4000-8000-%012d", index), project: project, at: start)
            .start(branch: branch)
        for (test, failed) in results(run: index) { script = failed ? script.fail(test) : script.pass(test) }
        return script.end()
    }

    /// Run `index` as a JUnit file started at `timestamp` (ISO 8601).
    public mutating func junit(run index: Int, timestamp: String) -> String {
        let cases = results(run: index).map { test, failed in
            let (suite, name) = (test.split(separator: "/")[0], test.split(separator: "/")[1])
            return failed
                ? #"<testcase classname="\#(suite)" name="\#(name)"><failure message="\#(name) broke"/></testcase>"#
                : #"<testcase classname="\#(suite)" name="\#(name)"/>"#
        }
        return #"<testsuite name="s" timestamp="\#(timestamp)">"# + cases.joined() + "</testsuite>"
    }
}
