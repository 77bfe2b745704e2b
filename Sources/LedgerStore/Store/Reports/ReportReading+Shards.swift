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
    ///   never passed cleanly), and the ids skipped by quarantine.
    /// - Throws: any database error.
    package func shardDurations(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double,
        excludingRevision revision: String? = nil
    ) throws -> (durations: [String: [Double]], skipped: Set<String>) {
        guard let project = try project ?? latestProject() else { return ([:], []) }
        let runs = try windowRuns(project: project, count: since == nil ? count : nil, since: since)
            .filter { revision == nil || $0.revision != revision }
        var durations: [Int64: [Double]] = [:]
        try forEachSummary(of: runs, seconds: true) { run, summary in
            let health = RunHealth(run: run.id, at: run.startedAt, tests: summary.tests, failed: summary.failed)
            guard !health.isNoise(thresholds) else { return true }
            let entries = summary.entries
            for index in 0..<entries.count {
                let code = entries.code(index)
                let clean = code.final.isPass && !code.anyFailed
                durations[entries.testID(index), default: []] += clean ? [summary.seconds(index)] : []
            }
            return true
        }
        let info = try testInfo(ids: Array(durations.keys))
        var byID: [String: [Double]] = [:]
        for (test, seconds) in durations {
            byID[info[test]?.key ?? "#\(test)", default: []] += seconds
        }
        let skipped = Set(try quarantined(project: project, at: now).filter { $0.mode == .skip }.map(\.test))
        return (byID.filter { !skipped.contains($0.key) }, skipped)
    }
}
