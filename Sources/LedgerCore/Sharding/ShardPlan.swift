/// Which tests each of N CI machines runs, and how long each is expected to take.
///
/// As JSON: `{"shards": [{"index": 1, "tests": ["id", …], "seconds": 61.2}, …], "unknown": […]}`.
public struct ShardPlan: Sendable, Equatable, Codable {
    /// One machine's share.
    public struct Shard: Sendable, Equatable, Codable {
        /// 1…N.
        public var index: Int
        /// The test (or suite) ids it runs, sorted.
        public var tests: [String]
        /// What it is expected to take: its process's fixed cost and its tests' typical durations.
        public var seconds: Double

        public init(index: Int, tests: [String], seconds: Double) {
            self.index = index
            self.tests = tests
            self.seconds = seconds
        }
    }

    public var shards: [Shard]
    /// The ids the ledger has never seen, weighed at the median, sorted.
    public var unknown: [String]

    public init(shards: [Shard], unknown: [String]) {
        self.shards = shards
        self.unknown = unknown
    }

    /// The shard that runs `id`, if any.
    public func shard(of id: String) -> Int? {
        shards.first { $0.tests.contains(id) }?.index
    }
}
