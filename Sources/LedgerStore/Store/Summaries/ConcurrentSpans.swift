import LedgerCore

/// The spans of time a run's attempts took, to tell whether any two ran at once: in a run where
/// none did, no attempt has another beside it, and the culprit report reads nothing more of it.
struct ConcurrentSpans {
    private var spans: [(start: Double, end: Double)] = []

    /// Takes an attempt; one with no duration never ended.
    mutating func add(startedAt: Double, duration: Double?) {
        spans.append((startedAt, duration.map { startedAt + $0 } ?? .infinity))
    }

    /// The overlap a summary counts: half the culprit report's slack, so that a run it calls serial
    /// has no overlap the report could find, whatever the rounding of times near 1.7 × 10⁹ s.
    static let tolerance = AttemptTimeline.slack / 2

    /// Whether two of the spans overlap by more than ``tolerance``: when not, none did by the slack.
    var anyOverlap: Bool { Self.anyOverlap(spans, slack: Self.tolerance) }

    /// Whether two of `spans` overlap as the culprit report counts it: each starts more than
    /// `slack` before the other ends. In order of start, each span is compared with the latest end
    /// among the spans before it that started early enough, a prefix of them.
    static func anyOverlap(_ spans: [(start: Double, end: Double)], slack: Double = AttemptTimeline.slack) -> Bool {
        let sorted = spans.sorted { $0.start < $1.start }
        var latestEnd: [Double] = []  // the latest end among sorted[...index]
        latestEnd.reserveCapacity(sorted.count)
        for (index, span) in sorted.enumerated() {
            var low = 0
            var high = index
            while low < high {  // the first span before this one that started too late
                let middle = (low + high) / 2
                if sorted[middle].start < span.end - slack { low = middle + 1 } else { high = middle }
            }
            if low > 0, span.start < latestEnd[low - 1] - slack { return true }
            latestEnd.append(max(latestEnd.last ?? -.infinity, span.end))
        }
        return false
    }
}
