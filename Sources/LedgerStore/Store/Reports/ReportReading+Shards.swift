import Foundation
import LedgerCore

extension ReportReading {
    /// What a shard plan weighs: each test's durations over the newest runs where it passed with
    /// no failed attempt, noise runs left out, and without the tests quarantined as skipped.
    ///
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs to read.
    ///   - since: when given, the runs since then instead.
    ///   - thresholds: which runs are noise.
    ///   - now: the moment whose quarantine applies.
    ///   - revision: runs of this revision are left out: the other shards of the same commit,
    ///     which a shard starting later would otherwise read, and plan differently from.
    /// - Returns: the durations by test id (every test of those runs, with no duration when it
    ///   never passed cleanly), the ids skipped by quarantine, and the median time from a run's
    ///   start to its first test (a shard's fixed cost; 0 without runs).
    /// - Throws: any database error.
    package func shardDurations(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double,
        excludingRevision revision: String? = nil
    ) throws -> ShardTimings {
        guard let project = try project ?? latestProject() else { return ShardTimings() }
        // The revision is left out before the window is counted, so that every shard of one
        // commit reads the same runs however many siblings have already stored theirs.
        let all = try windowRuns(project: project, count: nil, since: since)
        let others = all.filter { revision == nil || $0.revision != revision }
        let runs = since == nil ? Array(others.prefix(count)) : others
        var durations: [Int64: [Double]] = [:]
        var timed: [(run: WindowRun, seconds: [Int64: Double])] = []
        try forEachSummary(of: runs, seconds: true) { run, summary in
            let health = RunHealth(run: run.id, at: run.startedAt, tests: summary.tests, failed: summary.failed)
            guard !health.isNoise(thresholds) else { return true }
            let entries = summary.entries
            var seconds: [Int64: Double] = [:]
            for index in 0..<entries.count {
                let code = entries.code(index)
                let clean = code.final.isPass && !code.anyFailed
                durations[entries.testID(index), default: []] += clean ? [summary.seconds(index)] : []
                seconds[entries.testID(index)] = summary.seconds(index)
            }
            timed.append((run, seconds))
            return true
        }
        let info = try testInfo(ids: Array(durations.keys))
        let key = { (test: Int64) in info[test]?.key ?? "#\(test)" }
        var byID: [String: [Double]] = [:]
        for (test, seconds) in durations { byID[key(test), default: []] += seconds }
        let skipped = Set(try quarantined(project: project, at: now).filter { $0.mode == .skip }.map(\.test))
        let offsets = try firstTestOffsets(runs: runs).mapValues { max($0, 0) }
        return ShardTimings(
            durations: byID.filter { !skipped.contains($0.key) }, skipped: skipped,
            fixedCost: Statistics.median(Array(offsets.values)),
            runs: timed.map { run, seconds in
                ShardReplay.TimedRun(
                    id: run.id, fixedCost: offsets[run.row] ?? 0,
                    seconds: Dictionary(uniqueKeysWithValues: seconds.map { (key($0.key), $0.value) }))
            })
    }
}

/// What a shard plan is made from.
public struct ShardTimings: Sendable, Equatable, Codable {
    /// Each test's clean-pass durations, by test id; empty for a test that never passed cleanly.
    public var durations: [String: [Double]]
    /// The tests quarantined as skipped.
    public var skipped: Set<String>
    /// What each shard's process costs before its first test, in seconds.
    public var fixedCost: Double
    /// The runs read (noise left out), as they happened, in the window's order.
    public var runs: [ShardReplay.TimedRun]

    /// - Parameters:
    ///   - durations: each test's clean-pass durations, by test id.
    ///   - skipped: the tests quarantined as skipped.
    ///   - fixedCost: each shard's cost before its first test, in seconds.
    ///   - runs: the runs read, as they happened.
    public init(
        durations: [String: [Double]] = [:], skipped: Set<String> = [], fixedCost: Double = 0,
        runs: [ShardReplay.TimedRun] = []
    ) {
        (self.durations, self.skipped, self.fixedCost, self.runs) = (durations, skipped, fixedCost, runs)
    }
}
