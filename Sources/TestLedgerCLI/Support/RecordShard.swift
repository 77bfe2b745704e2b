import ArgumentParser
import Foundation
import LedgerCore
import LedgerStore

/// `record --shard I/N`: this machine's share of the suite, planned from the runner's own list of
/// tests (`swift test list`, `xcodebuild -enumerate-tests`) and the ledger's timings, so that a
/// test the ledger has never seen still runs in exactly one shard. For a runner that cannot list
/// its tests (Bacon), the plan is of the ledger's tests, and the runner's module places the rest.
struct RecordShard {
    let index: Int
    let plan: ShardPlan
    /// Whose arguments select the shard's tests; `nil` when the runner's module selects them.
    let runner: SkipArguments.Runner?
    /// Every test planned, to tell a whole suite from part of one.
    private let planned: [String]
    private let skipped: Set<String>

    /// - Parameters:
    ///   - index: which shard, 1…`count`.
    ///   - count: how many shards.
    ///   - listed: every test the runner names.
    ///   - timings: the ledger's durations, skipped tests (left out) and fixed cost.
    ///   - runner: whose arguments select the shard's tests; `nil` for the runner's module.
    init(index: Int, count: Int, listed: [String], timings: ShardTimings, runner: SkipArguments.Runner?) {
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
        case nil: []
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
            + (runner == nil ? "; tests the ledger has not seen are placed by the runner's module" : "")
    }

    /// Whether the runner lists every test, so that an empty shard has nothing to run and a test
    /// given that did not run is a failure; a plan of the ledger's tests may name removed ones.
    var isListedByTheRunner: Bool { runner != nil }

    /// What the runner's module reads: `TESTLEDGER_SHARD=I/N`, and the plan in `folder`.
    /// - Throws: what writing the plan throws.
    func moduleEnvironment(folder: URL) throws -> [String: String] {
        let file = folder.appending(path: "shard-plan.json")
        try JSONEncoder().encode(plan).write(to: file)
        return ["TESTLEDGER_SHARD": "\(index)/\(plan.shards.count)", "TESTLEDGER_SHARD_PLAN": file.path]
    }

    /// The tests given to this shard that have no result among `stored`; a result of one
    /// configuration (`testLaunch (Dark Appearance, Portrait)`) counts for its test.
    func unrun(stored: [String]) -> [String] {
        let ran = Set(stored.map(XcodebuildTestList.comparable))
        return tests.filter { !ran.contains(XcodebuildTestList.comparable($0)) }.sorted()
    }
}

extension RecordShard {
    /// This machine's share of the tests: listed by the runner (`swift test`, `xcodebuild test`)
    /// or, for another (Bacon's module), those of the ledger; weighed by the ledger.
    static func planned(
        _ text: String, swiftTest: SwiftTestInvocation?, xcodebuild: XcodebuildInvocation?, skipped: [String],
        history: RecordHistory, folder: URL, _ metadata: RunMetadata, _ config: ProjectConfiguration
    ) throws -> RecordShard {
        guard let (index, count) = ShardPlanner.parse(text) else {
            throw ValidationError("--shard takes I/N, 1 ≤ I ≤ N: 2/4 runs the second of four shards")
        }
        // Tests the command selects itself would run in every shard.
        if let swiftTest, swiftTest.original.contains(where: { $0 == "--filter" || $0.hasPrefix("--filter=") }) {
            throw ValidationError("--shard selects the tests itself: leave out swift test's --filter")
        }
        if let xcodebuild, xcodebuild.selectsTests {
            throw ValidationError("--shard selects the tests itself: leave out xcodebuild's -only-testing")
        }
        if metadata.revision == nil {
            printError(
                "testledger: --shard: no revision known (pass --revision): shards of one commit that start "
                    + "at different moments may plan differently")
        }
        var timings = try history.shardTimings(
            project: metadata.project, runs: config.reportWindow, thresholds: config.flaky,
            revision: metadata.revision)
        // The skip list the command is given, the server's when there is one, for this configuration.
        timings.skipped = Set(skipped)
        // The runner's own list when it has one; else the ledger's tests, the rest placed by its module.
        if let swiftTest {
            guard let listed = swiftTest.allTests(), !listed.isEmpty else {
                throw ValidationError("--shard: `swift test list` named no tests; run it to see why")
            }
            return RecordShard(index: index, count: count, listed: listed, timings: timings, runner: .swiftTest)
        }
        if let xcodebuild {
            let listed = try xcodebuild.allTests(writingInto: folder)
            guard !listed.isEmpty else {
                throw ValidationError("--shard: xcodebuild -enumerate-tests named no tests")
            }
            return RecordShard(index: index, count: count, listed: listed, timings: timings, runner: .xcodebuild)
        }
        return RecordShard(
            index: index, count: count, listed: timings.durations.keys.sorted(), timings: timings, runner: nil)
    }
}
