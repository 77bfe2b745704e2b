import ArgumentParser
import Foundation
import LedgerCore
import LedgerStore

extension TestLedgerCommand {
    /// `testledger shard`: splitting a suite across CI machines by the ledger's timings.
    struct Shard: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "shard", abstract: "Split a suite across CI machines by the ledger's timings.",
            subcommands: [Plan.self])
    }
}

extension TestLedgerCommand.Shard {
    /// `testledger shard plan`: which tests each of N machines runs.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan", abstract: "Plan N shards of the suite from its recent durations.",
            discussion: """
                Each test weighs the 75th percentile of its durations over the window's runs where it \
                passed with no failed attempt (noise runs left out); a test with none weighs the \
                median and is listed as unknown. Tests quarantined as skipped are left out. The \
                heaviest go first, each to the least loaded shard, ties to the smaller id: every \
                machine reading the same ledger gets the same plan.

                For a runner that `testledger record --shard` does not wrap, --for prints shard \
                --index's arguments, a whole suite by its name when the shard has all of it:
                  swift test $(testledger shard plan --shards 4 --for swift-test --index 2)
                """)

        @Option(help: "How many shards.")
        var shards: Int
        @Option(help: "What to place: each test, or each suite (a test id's part before its last '/').")
        var by: Unit = .test
        @Option(
            name: .customLong("for"),
            help: "Print the arguments that run shard --index for this runner: swift-test (--filter) or xcodebuild.")
        var runner: TestRunner?
        @Option(help: "The shard whose arguments --for prints, 1…N.")
        var index: Int?
        @Flag(help: "Replay the window's runs through this plan: each shard's predicted seconds against what it took.")
        var replay = false
        @OptionGroup var window: WindowOptions
        @OptionGroup var reporting: ReportOptions

        enum Unit: String, ExpressibleByArgument, CaseIterable {
            case test, suite
        }

        func validate() throws {
            guard (1...1_000).contains(shards) else { throw ValidationError("--shards takes a count from 1 to 1000") }
            if replay, by == .suite { throw ValidationError("--replay weighs tests: leave out --by suite") }
            if (runner == nil) != (index == nil) { throw ValidationError("--for and --index go together") }
            if runner == .module {
                throw ValidationError(
                    "--for bacon: Bacon's module runs its share itself; use testledger record --shard I/N -- bacon …")
            }
            if let index, !(1...shards).contains(index) { throw ValidationError("--index is 1…\(shards)") }
        }

        func run() throws {
            let (config, database) = try reporting.open()
            let read = try database.shardDurations(
                project: window.project.name, runs: window.count(config), since: try window.start(),
                thresholds: config.flaky, now: Date().timeIntervalSince1970)
            let plan = ShardPlanner.plan(items(read.durations), shards: shards, fixedCost: read.fixedCost)
            if let runner, let index {
                let every = plan.shards.flatMap(\.tests)
                let mine = plan.shards[index - 1].tests
                // No arguments would run every test.
                guard !mine.isEmpty else {
                    throw ValidationError(
                        "shard \(index) of \(shards) has no tests (\(every.count) timed in the ledger): record the whole "
                            + "suite once, or use fewer shards")
                }
                let arguments = ShardArguments.arguments(for: runner, selecting: mine, of: every, skipped: read.skipped)
                print(SkipArguments.substitutionLine(arguments))
                return
            }
            if replay {
                let replayed = ShardReplay(plan: plan, runs: read.runs)
                return try reporting.print(replayed, table: Self.table, markdown: { Self.table($0) })
            }
            try reporting.print(plan, table: Self.table, markdown: { Self.table($0) })
        }

        private func items(_ durations: [String: [Double]]) -> [ShardPlanner.Item] {
            let typical = durations.mapValues { ShardPlanner.typicalDuration(ofCleanPasses: $0) }
            guard by == .suite else { return typical.map { ShardPlanner.Item(id: $0.key, seconds: $0.value) } }
            var suites: [String: Double?] = [:]
            // In the order of the ids, so that every machine adds the same numbers in the same order.
            for (test, seconds) in typical.sorted(by: { $0.key < $1.key }) {
                let suite = ShardPlanner.suite(of: test)
                // A suite with any test never timed is weighed as unknown only when none was timed.
                let sum = (suites[suite] ?? nil).map { $0 + (seconds ?? 0) } ?? seconds
                suites[suite] = sum
            }
            return suites.map { ShardPlanner.Item(id: $0.key, seconds: $0.value) }
        }

        static func table(_ plan: ShardPlan) -> String {
            let rows = plan.shards.map { shard in
                ["\(shard.index)", String(format: "%.1f", shard.seconds), "\(shard.tests.count)"]
            }
            let unknown = plan.unknown.isEmpty ? "" : "\n\(plan.unknown.count) never timed, weighed at the median"
            return TextTable(headers: ["shard", "seconds", "tests"], rows: rows, numeric: [0, 1, 2]).plain + unknown
        }

        static func table(_ replay: ShardReplay) -> String {
            guard let first = replay.runs.first else { return "no runs to replay" }
            let seconds = { (value: Double) in String(format: "%.1f", value) }
            let predicted = ["predicted"] + first.shards.map { seconds($0.predicted) } + [""]
            let rows = replay.runs.map { run in
                [run.run] + run.shards.map { seconds($0.actual) }
                    + [String(format: "%.2f×", run.slowestOverMean)]
            }
            let headers = ["run"] + first.shards.map { "shard \($0.index)" } + ["slowest/mean"]
            return TextTable(headers: headers, rows: [predicted] + rows, numeric: Set(1...first.shards.count + 1)).plain
        }
    }
}

extension TestRunner: ExpressibleByArgument {}
