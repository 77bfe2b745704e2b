import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@Suite struct ShardPlannerTests {
    /// Hundreds of tests under a second and a few UI tests of 5–30 s, with 30 runs of noisy
    /// durations: the plan is made from 29, and the 30th, held out, is replayed through it.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func skewedSuitesSplitWithinTenPercentOfTheMeanOnHeldOutRuns(seed: UInt64) throws {
        var numbers = SeededNumbers(seed: seed)
        var means: [String: Double] = [:]
        for index in 0..<400 { means["Unit.Suite\(index % 20)/test\(index)"] = Double(numbers.below(900) + 20) / 1_000 }
        for index in 0..<8 { means["UI.Flows/test\(index)"] = Double(numbers.below(25) + 5) }
        // In the tests' order, not the dictionary's: that changes from process to process, and
        // with it which test drew which number.
        func run() -> [String: Double] {
            Dictionary(
                uniqueKeysWithValues: means.sorted { $0.key < $1.key }.map {
                    ($0.key, $0.value * (0.8 + Double(numbers.below(400)) / 1_000))
                })
        }
        let history = (0..<29).map { _ in run() }
        let heldOut = run()
        let items = means.keys.map { id in
            ShardPlanner.Item(
                id: id, seconds: ShardPlanner.typicalDuration(ofCleanPasses: history.compactMap { $0[id] }))
        }
        let plan = ShardPlanner.plan(items, shards: 4, fixedCost: 2)
        let actual = plan.shards.map { shard in 2 + shard.tests.reduce(0) { $0 + (heldOut[$1] ?? 0) } }
        let mean = actual.reduce(0, +) / Double(actual.count)
        #expect(try #require(actual.max()) / mean <= 1.10, "\(actual)")
        #expect(plan.shards.flatMap(\.tests).sorted() == means.keys.sorted(), "every test in exactly one shard")
        #expect(plan.unknown.isEmpty)
    }

    @Test func theSamePlanWhateverOrderTheTestsArriveIn() {
        var numbers = SeededNumbers(seed: 9)
        let items = (0..<200).map { ShardPlanner.Item(id: "S/t\($0)", seconds: Double(numbers.below(5)) / 4) }
        let plan = ShardPlanner.plan(items, shards: 3, fixedCost: 1)
        #expect(ShardPlanner.plan(items.reversed(), shards: 3, fixedCost: 1) == plan)
        #expect(ShardPlanner.plan(items.shuffled(), shards: 3, fixedCost: 1) == plan)
    }

    @Test func unknownTestsWeighTheMedianAndAreSpreadEvenly() {
        let known = (0..<8).map { ShardPlanner.Item(id: "Known/t\($0)", seconds: 2) }
        let new = (0..<8).map { ShardPlanner.Item(id: "New/t\($0)", seconds: nil) }
        let plan = ShardPlanner.plan(known + new, shards: 4)
        #expect(plan.unknown == new.map(\.id))
        #expect(plan.shards.map { $0.tests.filter { $0.hasPrefix("New/") }.count } == [2, 2, 2, 2])
        #expect(plan.shards.map(\.seconds) == [8, 8, 8, 8])
    }

    @Test func longestFirstToTheLeastLoadedTiesToTheSmallerIdAndTheLowerShard() {
        let items = [("a", 3.0), ("b", 3.0), ("c", 2.0), ("d", 1.0), ("e", 1.0)].map {
            ShardPlanner.Item(id: $0.0, seconds: $0.1)
        }
        let plan = ShardPlanner.plan(items, shards: 2, fixedCost: 0.5)
        #expect(
            plan.shards == [
                .init(index: 1, tests: ["a", "c"], seconds: 5.5),
                .init(index: 2, tests: ["b", "d", "e"], seconds: 5.5),
            ])
        #expect(plan.shard(of: "d") == 2 && plan.shard(of: "z") == nil)
    }

    @Test func moreShardsThanTestsLeavesSomeEmptyAndATestGivenTwiceIsPlacedOnce() {
        let plan = ShardPlanner.plan(
            [.init(id: "a", seconds: 1), .init(id: "a", seconds: 9), .init(id: "b", seconds: .nan)], shards: 3)
        #expect(plan.shards.map(\.tests) == [["a"], ["b"], []])
        #expect(plan.unknown == ["b"])
        #expect(ShardPlanner.plan([], shards: 0).shards == [.init(index: 1, tests: [], seconds: 0)])
    }

    @Test func typicalDurationIsTheSeventyFifthPercentileOfCleanPasses() {
        #expect(ShardPlanner.typicalDuration(ofCleanPasses: []) == nil)
        #expect(ShardPlanner.typicalDuration(ofCleanPasses: [1, 2, 3, 4, 5]) == 4)
    }

    @Test func shardArgumentsAreIndexOverCount() {
        #expect(ShardPlanner.parse("2/4")! == (2, 4))
        for bad in ["0/4", "5/4", "1/0", "a/b", "2", "2/4/1", "/4", ""] {
            #expect(ShardPlanner.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func theJSONKeysAreTheContractsOwn() throws {
        let plan = ShardPlan(shards: [.init(index: 1, tests: ["S/a"], seconds: 61.2)], unknown: ["S/new"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(plan), as: UTF8.self)
        #expect(text == #"{"shards":[{"index":1,"seconds":61.2,"tests":["S\/a"]}],"unknown":["S\/new"]}"#)
        #expect(try JSONDecoder().decode(ShardPlan.self, from: Data(text.utf8)) == plan)
    }

    @Test func aReplayPutsEachRunsRealSecondsBesideThePrediction() {
        let plan = ShardPlan(
            shards: [.init(index: 1, tests: ["a", "b"], seconds: 12), .init(index: 2, tests: ["c"], seconds: 12)],
            unknown: [])
        let runs = [
            ShardReplay.TimedRun(id: "r2", fixedCost: 2, seconds: ["a": 4, "b": 6, "c": 14]),
            ShardReplay.TimedRun(id: "r1", fixedCost: 1, seconds: ["a": 5, "c": 9]),
        ]
        let replay = ShardReplay(plan: plan, runs: runs)
        #expect(replay.runs.map(\.run) == ["r2", "r1"])
        #expect(replay.runs[0].shards.map(\.actual) == [12, 16])
        #expect(replay.runs[0].shards.map(\.predicted) == [12, 12])
        #expect(replay.runs[0].slowestOverMean == 1.143)
        #expect(replay.runs[1].shards.map(\.actual) == [6, 10], "a test the run did not have counts 0")
        #expect(ShardReplay(plan: plan, runs: []).runs.isEmpty)
    }

    @Test func aShardsArgumentsNameAWholeSuiteOnlyWhenTheNameSelectsNothingElse() throws {
        let every = [
            "App.Cart/testA", "App.Cart/testB", "App.Outer/checks()", "App.Outer/Inner/deep()", "App/free()",
            "App.Login/testX", "App.Login/testY",
        ]
        let mine = ["App.Cart/testA", "App.Cart/testB", "App.Outer/checks()", "App/free()", "App.Login/testX"]
        let arguments = ShardArguments.arguments(
            for: .xcodebuild, selecting: mine, of: every, skipped: [])
        // App.Cart is whole; App (a module), App.Login (split) and App.Outer (a nested suite
        // elsewhere) go test by test.
        #expect(
            arguments == [
                "-only-testing:App/Cart", "-only-testing:App/free()", "-only-testing:App/Login/testX",
                "-only-testing:App/Outer/checks()",
            ])
        let skipping = ShardArguments.arguments(
            for: .xcodebuild, selecting: ["App.Cart/testA", "App.Cart/testB"], of: every, skipped: ["App.Cart/testC"])
        #expect(
            skipping == ["-only-testing:App/Cart/testA", "-only-testing:App/Cart/testB"],
            "a suite's name would run testC")
        let filters = ShardArguments.arguments(
            for: .swiftTest, selecting: ["App.Cart/testA", "App.Cart/testB"], of: every)
        #expect(filters.count == 2 && filters[0] == "--filter")
        let suite = try Regex(filters[1])
        #expect("App.Cart/testA".contains(suite) && "App.Cart.testB()/Cart.swift:3:2".contains(suite))
        #expect(!"App.CartTwo/testA".contains(suite))
    }
}
