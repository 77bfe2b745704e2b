import Foundation
import GRDB
import LedgerCore
import LedgerStore

/// `ledger-benchmark --trends-scale`: `report trends` over years of daily runs (by default 700 runs
/// of 10,000 tests, about two years) by week, by day and by run, each against one `GROUP BY test`
/// over the same results and held to the gate's `trends` limit, with the wall time a person waits
/// and the peak memory of a process of its own.
enum TrendsScale {
    struct Scenario {
        var tests = 10_000
        var runs = 700
        var repeats = 3
        /// A ledger to keep and read again: made when it is missing.
        var ledger: URL?
    }

    /// Measures and prints each figure; whether each is within the `trends` limit of `limits`.
    static func run(_ scenario: Scenario, limits file: URL) throws -> Bool {
        let limits = try GateLimits(markdown: String(contentsOf: file, encoding: .utf8), source: file.path)
        guard let limit = limits.limits["trends"] else {
            throw GateLimits.Problem("\(file.path): the gate's table has no `trends` limit")
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-trends-scale-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = scenario.ledger ?? folder.appending(path: "ledger.sqlite")
        let database = try ledger(at: path, scenario: scenario, folder: folder)
        let results = try database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM result") } ?? 0
        print("report trends over \(scenario.runs) daily runs × \(scenario.tests) tests = \(results) results")
        let baseline = try measure(scenario.repeats) { try ReportCost.groupBy(database) }
        print(line("GROUP BY test over every result (baseline)", baseline, ratio: 1))
        var within = true
        for grouping in [TrendsReport.Grouping.week, .day, .run] {
            let cost = try measure(scenario.repeats) { _ = try trends(database, by: grouping) }
            let ratio = cost.cpu / baseline.cpu
            within = within && ratio <= limit
            print(
                line("report trends --by \(grouping.rawValue)", cost, ratio: ratio)
                    + String(format: "  limit %.2f×  %@", limit, ratio <= limit ? "ok" : "FAILED"))
        }
        let days90 = Date().timeIntervalSince1970 - 90 * 86_400
        let page = try measure(scenario.repeats) { _ = try trends(database, by: .week, since: days90) }
        print(line("report trends --since 90d (the project page's)", page, ratio: page.cpu / baseline.cpu))
        let peak = try PeakMemory.child(["--peak-rss", "trends", path.path])
        print(String(format: "  peak RSS of report trends --by week, a process of its own: %.1f MiB", peak))
        return within
    }

    /// The ledger at `path`, first made of the scenario's daily runs when it has none; the newest
    /// run starts an hour ago, so that the CLI's `--since` finds them all.
    static func ledger(at path: URL, scenario: Scenario, folder: URL) throws -> LedgerDatabase {
        let made = FileManager.default.fileExists(atPath: path.path)
        let database = try LedgerDatabase(path: path.path)
        guard !made else { return database }
        let day = 86_400.0
        let history = SyntheticHistory(
            tests: scenario.tests, runs: scenario.runs,
            start: Date().timeIntervalSince1970 - 3_600 - Double(scenario.runs - 1) * day, spacing: day)
        let stream = folder.appending(path: "history.ndjson")
        let started = Date()
        try history.writeLedgerStream(to: stream)
        try GateMeasures(scenario: .init(), folder: folder).ingest(stream, into: database)
        try FileManager.default.removeItem(at: stream)
        print(String(format: "made %@ in %.0f s", path.path, Date().timeIntervalSince(started)))
        return database
    }

    /// `report trends` over every run since `since`, grouped by `grouping`.
    static func trends(
        _ database: LedgerDatabase, by grouping: TrendsReport.Grouping, since: Double = 0
    ) throws -> TrendsReport {
        try database.trendsReport(
            project: "Bench", branch: nil, since: since, grouping: grouping, window: 30, thresholds: FlakyThresholds(),
            classifier: LayerClassifier())
    }

    /// The least CPU seconds and the least wall seconds of `repeats` runs of `body`.
    static func measure(_ repeats: Int, _ body: () throws -> Void) throws -> (cpu: Double, wall: Double) {
        var least = (cpu: Double.infinity, wall: Double.infinity)
        for _ in 0..<repeats {
            let (cpu, wall) = (CPUTime.ofThisProcess, Date())
            try body()
            least = (min(least.cpu, CPUTime.ofThisProcess - cpu), min(least.wall, Date().timeIntervalSince(wall)))
        }
        return least
    }

    static func line(_ label: String, _ cost: (cpu: Double, wall: Double), ratio: Double) -> String {
        "  " + label.padding(toLength: 44, withPad: " ", startingAt: 0)
            + String(format: "%7.2f s CPU %7.2f s wall %7.2f×", cost.cpu, cost.wall, ratio)
    }
}
