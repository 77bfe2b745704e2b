import Foundation
import GRDB
import LedgerCore
import LedgerStore

/// The reports' cost against one `GROUP BY test` over the same stored results, measured in the same
/// run: this process's CPU seconds, the least of several repeats (wall time swings too much here).
enum ReportCost {
    /// The window `report culprit` is measured over: twice the default, the figure's own since it was set.
    static let culpritRuns = 60

    static func run(database: LedgerDatabase, project: String, runs: Int, results: Int, repeats: Int = 5) throws {
        let newest = try database.windowRuns(project: project, count: 1, since: nil).first?.startedAt ?? 0
        let groupBy = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) { try Self.groupBy(database) }
        var flaky = FlakyReport(runs: 0, flaky: [], broken: [], recovered: [], predicates: [], noiseRuns: [])
        let flakySeconds = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) {
            flaky = try database.flakyReport(
                project: project, runs: runs, since: nil, thresholds: FlakyThresholds(), now: newest + 3_600)
        }
        let withCulprits = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) {
            _ = try database.withCulprits(
                try database.flakyReport(
                    project: project, runs: runs, since: nil, thresholds: FlakyThresholds(), now: newest + 3_600),
                project: project, runs: runs, since: nil)
        }
        // The flaky test with the most failing attempts: the most evidence to compare.
        let culpritTest = flaky.flaky.max { ($0.failures, $1.test) < ($1.failures, $0.test) }?.test ?? ""
        var culprit: CulpritReport?
        let culpritSeconds = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) {
            culprit = try database.culpritReport(
                test: culpritTest, project: project, runs: ReportCost.culpritRuns, since: nil)
        }
        var lost = CostReport(runs: 0, tests: [], lostRuns: [])
        let costSeconds = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) {
            lost = try database.costReport(
                project: project, runs: runs, since: nil, thresholds: FlakyThresholds(), now: newest + 3_600)
        }
        let shardSeconds = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) {
            _ = try database.shardDurations(
                project: project, runs: runs, since: nil, thresholds: FlakyThresholds(), now: newest + 3_600)
        }
        let pyramidSince = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) {
            _ = try database.pyramidReport(
                project: project, run: nil, since: newest - 30 * 86_400, classifier: LayerClassifier())
        }
        let pyramidLatest = try CPUTime.least(repeats: repeats, { CPUTime.ofThisProcess }) {
            _ = try database.pyramidReport(project: project, run: nil, since: nil, classifier: LayerClassifier())
        }
        print("Reports over \(results) stored results (CPU seconds, least of \(repeats)):")
        line("GROUP BY test over every result (baseline)", groupBy, baseline: groupBy)
        line("report flaky --runs \(runs)", flakySeconds, baseline: groupBy, target: 0.2)
        line(
            "report flaky --runs \(runs) with its culprit column", withCulprits, baseline: groupBy, target: 0.5)
        line("report cost --runs \(runs)", costSeconds, baseline: groupBy)
        line("shard plan --runs \(runs) (its timings)", shardSeconds, baseline: groupBy)
        line("report pyramid --since 30d", pyramidSince, baseline: groupBy, target: 0.2)
        line("report pyramid (latest run)", pyramidLatest, baseline: groupBy)
        print(
            "  report culprit TEST --runs \(ReportCost.culpritRuns)".padding(
                toLength: 46, withPad: " ", startingAt: 0)
                + String(
                    format: " %8.4f s  target ≤ 0.050 s: %@", culpritSeconds, culpritSeconds <= 0.05 ? "met" : "MISSED")
                + " (\(culprit?.failingAttempts ?? 0) failing, \(culprit?.passingAttempts ?? 0) passing attempts)")
        print(
            String(
                format: "  report cost: %.2f× report flaky; %d flaky tests cost %.0f s, %d runs lost whole",
                costSeconds / flakySeconds, lost.tests.count, lost.seconds, lost.lostRuns.count))
        print(
            "  found \(flaky.flaky.count) flaky, \(flaky.broken.count) broken, \(flaky.recovered.count) recovered,"
                + " \(flaky.predicates.count) predicates")
    }

    /// One `GROUP BY test` over every stored result: the baseline of every report's cost.
    static func groupBy(_ database: LedgerDatabase) throws {
        _ = try database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT testId, count(*), sum(outcome IN ('failed', 'error', 'crashed')) FROM result
                    GROUP BY testId
                    """)
        }
    }

    static func line(_ label: String, _ seconds: Double, baseline: Double, target: Double? = nil) {
        var text = "  " + label.padding(toLength: 44, withPad: " ", startingAt: 0)
        text += String(format: " %8.4f s  %6.3f× GROUP BY", seconds, seconds / baseline)
        if let target {
            text += String(format: "  target ≤ %.1f×: %@", target, seconds / baseline <= target ? "met" : "MISSED")
        }
        print(text)
    }
}
