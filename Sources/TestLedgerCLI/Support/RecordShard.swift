import Foundation
import LedgerCore
import LedgerStore

/// `record --shard I/N`: this machine's share of the suite, planned from the runner's own list of
/// tests (`swift test list`, `xcodebuild -enumerate-tests`) and the ledger's timings, so that a
/// test the ledger has never seen still runs in exactly one shard.
struct RecordShard {
    let index: Int
    let plan: ShardPlan
    let runner: SkipArguments.Runner
    /// Every test planned, to tell a whole suite from part of one.
    private let planned: [String]
    private let skipped: Set<String>

    /// - Parameters:
    ///   - index: which shard, 1…`count`.
    ///   - count: how many shards.
    ///   - listed: every test the runner names.
    ///   - timings: the ledger's durations, skipped tests (left out) and fixed cost.
    ///   - runner: whose arguments select the shard's tests.
    init(index: Int, count: Int, listed: [String], timings: ShardTimings, runner: SkipArguments.Runner) {
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
    var tests: [String] { plan.shards[index - 1].tests }

    /// The arguments that select this shard's tests: one `--filter` per test for `swift test`;
    /// `-only-testing:` per test, or per suite the shard has whole, for `xcodebuild`.
    var arguments: [String] {
        switch runner {
        case .swiftTest: SkipArguments.swiftTestArguments(selecting: tests)
        case .xcodebuild:
            ShardArguments.arguments(for: .xcodebuild, selecting: tests, of: planned, skipped: skipped)
        }
    }

    /// What the shard says before the tests run.
    var announcement: String {
        let shard = plan.shards[index - 1]
        let unknown = Set(plan.unknown).intersection(shard.tests).count
        return "testledger: shard \(index)/\(plan.shards.count): \(shard.tests.count) of "
            + "\(plan.shards.reduce(0) { $0 + $1.tests.count }) tests, about "
            + String(format: "%.1f", shard.seconds) + " s expected"
            + (unknown > 0 ? " (\(unknown) never timed, weighed at the median)" : "")
    }

    /// The tests given to this shard that have no result among `stored`; a result of one
    /// configuration (`testLaunch (Dark Appearance, Portrait)`) counts for its test.
    func unrun(stored: [String]) -> [String] {
        let ran = Set(stored.map(XcodebuildTestList.comparable))
        return tests.filter { !ran.contains(XcodebuildTestList.comparable($0)) }.sorted()
    }
}
