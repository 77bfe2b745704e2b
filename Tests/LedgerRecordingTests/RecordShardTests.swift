import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore
import Testing

@Suite struct RecordShardTests {
    private let folder = FileManager.default.temporaryDirectory.appending(path: "record-shard-\(UUID().uuidString)")
    private let timings = ShardTimings(
        durations: ["Spec/a": [4], "Spec/b": [3], "Spec/c": [2], "Spec/d": [1], "Spec/quarantined": [9]],
        skipped: ["Spec/quarantined"])

    @Test func aModulesShardIsPlannedFromTheLedgersTestsAndSelectedInItsEnvironment() throws {
        let command = TestCommand(["bacon", "spec"], outputFolder: folder)
        let first = try RecordShard.planned("1/2", command: command, timings: { timings }, folder: folder)
        let second = try RecordShard.planned("2/2", command: command, timings: { timings }, folder: folder)
        #expect(first.runner == .module && !first.isListedByTheRunner)
        // Every timed test in exactly one shard, the skipped one in none, balanced by time.
        #expect(Set(first.tests).union(second.tests) == ["Spec/a", "Spec/b", "Spec/c", "Spec/d"])
        #expect(Set(first.tests).isDisjoint(with: second.tests))
        #expect(first.plan.shards.map(\.seconds).sorted() == [5, 5])
        #expect(first.arguments.isEmpty)
        #expect(first.announcement.contains("placed by the runner's module"))

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try second.moduleEnvironment(folder: folder)
        #expect(environment[LedgerEnvironment.Module.shard] == "2/2")
        let plan = try JSONDecoder().decode(
            ShardPlan.self,
            from: Data(contentsOf: URL(fileURLWithPath: try #require(environment["TESTLEDGER_SHARD_PLAN"]))))
        #expect(plan == second.plan)
    }

    @Test func aCommandThatChoosesItsOwnTestsCannotBeShardedAndTheLedgerIsNotAsked() throws {
        var asked = false
        for command in [["swift", "test", "--filter", "Cart"], ["xcodebuild", "test", "-only-testing:App/Cart"]] {
            #expect(throws: RecordUsageError.self) {
                try RecordShard.planned(
                    "1/2", command: TestCommand(command, outputFolder: folder),
                    timings: {
                        asked = true
                        return timings
                    }, folder: folder)
            }
        }
        #expect(!asked)
        #expect(throws: RecordUsageError("--shard takes I/N, 1 ≤ I ≤ N: 2/4 runs the second of four shards")) {
            try RecordShard.planned(
                "3/2", command: TestCommand(["bacon"], outputFolder: folder), timings: { timings },
                folder: folder)
        }
    }

    @Test func aListedShardSelectsByArgumentAndCountsWhatDidNotRun() {
        let listed = ["App.Cart/testA", "App.Cart/testB", "App.Menu/testC", "App.New/testNever"]
        let shard = RecordShard(
            index: 1, count: 1, listed: listed, timings: ShardTimings(durations: ["App.Cart/testA": [1]]),
            runner: .swiftTest)
        #expect(shard.isListedByTheRunner && shard.tests == listed)
        #expect(shard.arguments.filter { $0 == "--filter" }.count == listed.count)
        #expect(shard.announcement.contains("never timed") && !shard.announcement.contains("module"))
        // A result of one configuration counts for its test.
        #expect(
            shard.unrun(stored: ["App.Cart/testA", "App.Cart/testB (Dark Appearance)", "App.Menu/testC"])
                == ["App.New/testNever"])
    }
}
