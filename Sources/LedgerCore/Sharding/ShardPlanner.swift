/// Splits tests across machines by their typical durations: longest first, each to the least
/// loaded shard. The same inputs give the same plan on every machine: ties go to the smaller id
/// and the lower shard.
public enum ShardPlanner {
    /// A test (or suite) to place, with its typical duration; `nil` when the ledger has none.
    public struct Item: Sendable, Equatable {
        public var id: String
        public var seconds: Double?

        public init(id: String, seconds: Double?) {
            self.id = id
            self.seconds = seconds
        }
    }

    /// Packs `items` into `count` shards.
    /// - Parameters:
    ///   - items: what to place; an id given twice is placed once, with its first duration.
    ///   - count: how many shards, at least 1.
    ///   - fixedCost: what every shard's process costs before its first test, in seconds.
    /// - Returns: `count` shards, each possibly empty, and the ids placed at the median.
    public static func plan(_ items: [Item], shards count: Int, fixedCost: Double = 0) -> ShardPlan {
        let count = max(count, 1)
        var seen = Set<String>()
        let unique = items.filter { seen.insert($0.id).inserted }
        let durations = unique.map { usable($0.seconds) }
        let known = durations.compactMap { $0 }
        let typical = known.isEmpty ? 1 : Statistics.median(known)
        let weighed: [(id: String, seconds: Double)] = zip(unique, durations)
            .map { item, seconds in (item.id, seconds ?? typical) }
            .sorted { $0.seconds != $1.seconds ? $0.seconds > $1.seconds : $0.id < $1.id }
        var shards = (1...count).map { ShardPlan.Shard(index: $0, tests: [], seconds: fixedCost) }
        for item in weighed {
            // The least loaded shard; the lowest index among equals.
            var target = 0
            for index in shards.indices where shards[index].seconds < shards[target].seconds { target = index }
            shards[target].tests.append(item.id)
            shards[target].seconds += item.seconds
        }
        for index in shards.indices {
            shards[index].tests.sort()
            shards[index].seconds = (shards[index].seconds * 1_000).rounded() / 1_000
        }
        let unknown = zip(unique, durations).filter { $0.1 == nil }.map(\.0.id).sorted()
        return ShardPlan(shards: shards, unknown: unknown)
    }

    /// A duration that can be weighed: finite and not negative.
    private static func usable(_ seconds: Double?) -> Double? {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    /// A test's typical duration from its clean passes: the 75th percentile, so that one quick
    /// run does not make it look cheap; `nil` without any.
    public static func typicalDuration(ofCleanPasses durations: [Double]) -> Double? {
        durations.isEmpty ? nil : Statistics.percentile(durations, 0.75)
    }

    /// A test id's suite: its part before the last `/`.
    public static func suite(of test: String) -> String {
        test.lastIndex(of: "/").map { String(test[..<$0]) } ?? test
    }

    /// Reads `index/count` (`2/4`): 1 ≤ index ≤ count.
    public static func parse(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else { return nil }
        return (index, count)
    }
}
