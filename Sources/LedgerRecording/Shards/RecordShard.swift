import Foundation
import LedgerCore
import LedgerStore

/// `record --shard I/N`: this machine's share of the suite, planned from the runner's own list of
/// tests (`swift test list`, `xcodebuild -enumerate-tests`) and the ledger's timings, so that a
/// test the ledger has never seen still runs in exactly one shard. For a runner that cannot list
/// its tests (Bacon), the plan is of the ledger's tests, and the runner's module places the rest.
package struct RecordShard {
    package let index: Int
    package let plan: ShardPlan
    /// Whose arguments select the shard's tests, or whose module does.
    package let runner: TestRunner
    /// Every test planned, to tell a whole suite from part of one.
    private let planned: [String]
    private let skipped: Set<String>

    /// - Parameters:
    ///   - index: which shard, 1…`count`.
    ///   - count: how many shards.
    ///   - listed: every test the runner names.
    ///   - timings: the ledger's durations, skipped tests (left out) and fixed cost.
    ///   - runner: whose arguments select the shard's tests, or whose module does.
    package init(index: Int, count: Int, listed: [String], timings: ShardTimings, runner: TestRunner) {
        let items = listed.filter { !timings.skipped.contains($0) }.map { test in
            ShardPlanner.Item(
                id: test, seconds: ShardPlanner.typicalDuration(ofCleanPasses: timings.durations[test] ?? []))
        }
        self.index = index
        self.runner = runner
        plan = ShardPlanner.plan(items, shards: count, fixedCost: timings.fixedCost)
        planned = items.map(\.id)
        skipped = timings.skipped
    }

    /// The tests this shard runs, sorted.
    package var tests: [String] { plan.shards[index - 1].tests }

    /// The arguments that select this shard's tests: one `--filter` per test for `swift test`;
    /// `-only-testing:` per test, or per suite the shard has whole, for `xcodebuild`.
    package var arguments: [String] {
        switch runner {
        case .swiftTest: SkipArguments.swiftTestArguments(selecting: tests)
        case .xcodebuild, .module:
            ShardArguments.arguments(for: runner, selecting: tests, of: planned, skipped: skipped)
        }
    }

    /// What the shard says before the tests run.
    package var announcement: String {
        let shard = plan.shards[index - 1]
        let unknown = Set(plan.unknown).intersection(shard.tests).count
        return "testledger: shard \(index)/\(plan.shards.count): \(shard.tests.count) of "
            + "\(plan.shards.reduce(0) { $0 + $1.tests.count }) tests, about "
            + String(format: "%.1f", shard.seconds) + " s expected"
            + (unknown > 0 ? " (\(unknown) never timed, weighed at the median)" : "")
            + (runner.listsItsTests ? "" : "; tests the ledger has not seen are placed by the runner's module")
    }

    /// Whether the runner lists every test, so that an empty shard has nothing to run and a test
    /// given that did not run is a failure; a plan of the ledger's tests may name removed ones.
    package var isListedByTheRunner: Bool { runner.listsItsTests }

    /// What the runner's module reads: `TESTLEDGER_SHARD=I/N`, and the plan in `folder`.
    /// - Throws: what writing the plan throws.
    package func moduleEnvironment(folder: URL) throws -> [String: String] {
        let file = folder.appending(path: "shard-plan.json")
        try JSONEncoder().encode(plan).write(to: file)
        return [
            LedgerEnvironment.Module.shard: "\(index)/\(plan.shards.count)",
            LedgerEnvironment.Module.shardPlan: file.path,
        ]
    }

    /// The tests given to this shard that have no result among `stored`; a result of one
    /// configuration (`testLaunch (Dark Appearance, Portrait)`) counts for its test.
    package func unrun(stored: [String]) -> [String] {
        let ran = Set(stored.map(XcodebuildTestList.comparable))
        return tests.filter { !ran.contains(XcodebuildTestList.comparable($0)) }.sorted()
    }
}

extension RecordShard {
    /// This machine's share of the tests: listed by the runner (`swift test`, `xcodebuild test`)
    /// or, for a module (Bacon's), those of the ledger; weighed by the ledger.
    /// - Parameters:
    ///   - text: `--shard`'s `I/N`.
    ///   - command: the test command, which must not choose its tests itself.
    ///   - readTimings: reads the ledger's (or the team server's) timings, with the tests quarantined
    ///     as skipped; asked once the command is known to allow a shard.
    ///   - folder: where the runner writes its list of tests.
    /// - Returns: the shard: its index and count, the tests listed and their timings.
    /// - Throws: ``RecordUsageError`` when the shard cannot be planned for this command, and what
    ///   reading the timings or the runner's list throws.
    package static func planned(
        _ text: String, command: TestCommand, timings readTimings: () throws -> ShardTimings, folder: URL
    ) throws -> RecordShard {
        guard let (index, count) = ShardPlanner.parse(text) else {
            throw RecordUsageError("--shard takes I/N, 1 ≤ I ≤ N: 2/4 runs the second of four shards")
        }
        // Tests the command selects itself would run in every shard.
        if command.selectsTests {
            let option = command.runner == .xcodebuild ? "xcodebuild's -only-testing" : "swift test's --filter"
            throw RecordUsageError("--shard selects the tests itself: leave out \(option)")
        }
        let timings = try readTimings()
        // The runner's own list when it has one; else the ledger's tests, the rest placed by its module.
        guard command.runner.listsItsTests else {
            return RecordShard(
                index: index, count: count, listed: timings.durations.keys.sorted(), timings: timings, runner: .module)
        }
        guard let listed = try command.allTests(writingInto: folder), !listed.isEmpty else {
            throw RecordUsageError(
                command.runner == .xcodebuild
                    ? "--shard: xcodebuild -enumerate-tests named no tests"
                    : "--shard: `swift test list` named no tests; run it to see why")
        }
        return RecordShard(index: index, count: count, listed: listed, timings: timings, runner: command.runner)
    }
}
