import Foundation
import LedgerCore
import LedgerStore

/// `record --shard I/N -- swift test`: this machine's share of the suite, planned from the
/// runner's own list of tests and the ledger's timings, so that a test the ledger has never seen
/// still runs in exactly one shard.
struct SwiftTestShard {
    let index: Int
    let plan: ShardPlan

    /// - Parameters:
    ///   - index: which shard, 1…`count`.
    ///   - count: how many shards.
    ///   - listed: every test `swift test list` names.
    ///   - timings: the ledger's durations, skipped tests (left out) and fixed cost.
    init(index: Int, count: Int, listed: [String], timings: ShardTimings) {
        let items = listed.filter { !timings.skipped.contains($0) }.map { test in
            ShardPlanner.Item(
                id: test, seconds: ShardPlanner.typicalDuration(ofCleanPasses: timings.durations[test] ?? []))
        }
        self.index = index
        plan = ShardPlanner.plan(items, shards: count, fixedCost: timings.fixedCost)
    }

    /// The tests this shard runs, sorted.
    var tests: [String] { plan.shards[index - 1].tests }

    /// The `--filter` arguments that select this shard's tests.
    var arguments: [String] { SkipArguments.swiftTestArguments(selecting: tests) }

    /// What the shard says before the tests run.
    var announcement: String {
        let shard = plan.shards[index - 1]
        let unknown = Set(plan.unknown).intersection(shard.tests).count
        return "testledger: shard \(index)/\(plan.shards.count): \(shard.tests.count) of "
            + "\(plan.shards.reduce(0) { $0 + $1.tests.count }) tests, about "
            + String(format: "%.1f", shard.seconds) + " s expected"
            + (unknown > 0 ? " (\(unknown) never timed, weighed at the median)" : "")
    }

    /// The tests given to this shard that have no result among `stored`.
    func unrun(stored: [String]) -> [String] {
        Set(tests).subtracting(stored).sorted()
    }
}
