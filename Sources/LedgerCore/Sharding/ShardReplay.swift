/// Today's plan against what recent runs really took: each shard's predicted seconds beside the
/// seconds its tests took in each run, with that run's fixed cost.
public struct ShardReplay: Sendable, Equatable, Codable {
    /// A run as it happened: what its process spent before its first test, and each test's seconds.
    public struct TimedRun: Sendable, Equatable, Codable {
        public var id: String
        public var fixedCost: Double
        public var seconds: [String: Double]

        public init(id: String, fixedCost: Double, seconds: [String: Double]) {
            (self.id, self.fixedCost, self.seconds) = (id, fixedCost, seconds)
        }
    }

    /// One shard in one run.
    public struct Shard: Sendable, Equatable, Codable {
        public var index: Int
        public var predicted: Double
        public var actual: Double
    }

    /// One run replayed through the plan.
    public struct Run: Sendable, Equatable, Codable {
        public var run: String
        public var shards: [Shard]
        /// The slowest shard's actual seconds over the shards' mean: 1 is a perfect split.
        public var slowestOverMean: Double
    }

    public var runs: [Run]

    /// Replays `runs` through `plan`; a test a run did not have counts 0 in it.
    public init(plan: ShardPlan, runs: [TimedRun]) {
        self.runs = runs.map { run in
            let shards = plan.shards.map { shard in
                Shard(
                    index: shard.index, predicted: shard.seconds,
                    actual: Self.rounded(run.fixedCost + shard.tests.reduce(0) { $0 + (run.seconds[$1] ?? 0) }))
            }
            let mean = shards.reduce(0) { $0 + $1.actual } / Double(max(shards.count, 1))
            let slowest = shards.map(\.actual).max() ?? 0
            return Run(run: run.id, shards: shards, slowestOverMean: mean > 0 ? Self.rounded(slowest / mean) : 1)
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 1_000).rounded() / 1_000 }
}
