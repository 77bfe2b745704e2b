/// `select --replay`: selection recomputed for stored runs, oldest first, as if each had been
/// recorded with `--select`: what it would have left out of each, the failures among them (the
/// goal is none) and the time it would have saved.
///
/// A replayed run's targets are vouched for by an earlier replayed run of the base or its branch,
/// not cut short, with the same target hash, in which every test of the target passed and which
/// ran every test the later run ran of it. The failing and flaky tests of the window's runs
/// before, the tests new to the base and the unskippable ones run all the same, as they would.
public enum SelectionReplay {
    /// A stored run, with what its revision tells of the change.
    public struct Run: Sendable {
        public var run: String
        public var revision: String
        public var branch: String?
        public var at: Double
        /// Whether it was interrupted or a test of it crashed.
        public var cutShort: Bool
        /// The files its revision changed since its merge base with the base branch.
        public var changedFiles: [String]
        /// Each test target's hash at its revision.
        public var hashes: [String: String]
        /// Each attempt: its test, outcome and seconds, in attempt order per test.
        public var attempts: [(test: String, outcome: Outcome, seconds: Double)]

        public init(
            run: String, revision: String, branch: String?, at: Double, cutShort: Bool, changedFiles: [String],
            hashes: [String: String], attempts: [(test: String, outcome: Outcome, seconds: Double)]
        ) {
            (self.run, self.revision, self.branch, self.at, self.cutShort) = (run, revision, branch, at, cutShort)
            (self.changedFiles, self.hashes, self.attempts) = (changedFiles, hashes, attempts)
        }
    }

    /// What an earlier run can vouch for.
    private struct Voucher {
        var vouch: Vouch
        var branch: String?
        var hashes: [String: String]
        /// Each module's tests, when all of them passed.
        var passedModules: [String: Set<String>]
    }

    /// - Parameters:
    ///   - runs: the stored runs, oldest first.
    ///   - graph: the package graph.
    ///   - base: the base branch.
    ///   - ignore: `select.ignore`'s patterns.
    ///   - unskippable: `select.unskippable`'s patterns.
    ///   - window: how many runs before a failing test keeps running.
    /// - Returns: the report, every replayed run in it, newest first.
    public static func replay(
        _ runs: [Run], graph: PackageGraph, base: String, ignore: [PathPattern], unskippable: [String], window: Int
    ) -> SelectionReport {
        var vouchers: [Voucher] = []
        var failing: [Set<String>] = []
        var known: Set<String>?
        var replayed: [SelectionReport.Run] = []
        for run in runs {
            var final: [String: Outcome] = [:]
            for attempt in run.attempts { final[attempt.test] = attempt.outcome }
            let modules = Dictionary(grouping: final.keys, by: TestSelection.module(of:)).mapValues(Set.init)
            var vouches: [String: Vouch] = [:]
            for target in graph.testTargets {
                let tests = modules[target.module] ?? []
                vouches[target.name] =
                    vouchers.last { voucher in
                        (voucher.branch == base || voucher.branch == run.branch)
                            && voucher.hashes[target.name] == run.hashes[target.name]
                            && voucher.passedModules[target.module].map(tests.isSubset(of:)) == true
                    }?.vouch
            }
            var selection = TestSelection(
                graph: graph, changedFiles: run.changedFiles, ignore: ignore, hashes: run.hashes, vouches: vouches)
            let candidates = final.keys.filter { selection.skippedTarget(of: $0) != nil }
            selection.keep(
                TestSelection.mustRun(
                    candidates, known: known, base: base, troubled: failing.suffix(window).reduce([], { $0.union($1) }),
                    unskippable: unskippable))
            replayed.append(judge(run, selection, final))

            failing.append(Set(final.filter { $0.value.isFailure }.keys))
            if run.branch == base { known = (known ?? []).union(final.keys) }
            guard !run.cutShort else { continue }
            let passedModules = modules.filter { _, tests in tests.allSatisfy { final[$0]?.isPass == true } }
            vouchers.append(
                Voucher(
                    vouch: Vouch(run: run.run, revision: run.revision, at: run.at), branch: run.branch,
                    hashes: run.hashes, passedModules: passedModules))
        }
        return SelectionReport(replayed: replayed.reversed())
    }

    private static func judge(_ run: Run, _ selection: TestSelection, _ final: [String: Outcome]) -> SelectionReport.Run
    {
        var saved = 0.0
        var total = 0.0
        for attempt in run.attempts {
            total += attempt.seconds
            if selection.skippedTarget(of: attempt.test) != nil { saved += attempt.seconds }
        }
        let missed = final.filter { $0.value.isFailure && selection.skippedTarget(of: $0.key) != nil }.keys.sorted()
        return SelectionReport.Run(
            run: run.run, revision: run.revision, at: run.at, mode: .replayed, targets: selection.targets.count,
            skippedTargets: selection.targets.filter { !$0.runs }.map(\.target), missedFailures: missed,
            savedSeconds: saved, testSeconds: total)
    }
}
