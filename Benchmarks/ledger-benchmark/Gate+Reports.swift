import Foundation
import LedgerCore
import LedgerStore

extension GateMeasures {
    /// Each report a CI job or a person waits for, over the scenario's ledger, against one
    /// `GROUP BY test` over the same results; `report flaky` also over the runs side by side.
    func reports() throws -> [GateLimits.Figure] {
        let (database, _, results) = try ledger(tests: scenario.tests)
        let runs = scenario.runs
        let baseline = try groupBy(database)
        let newest = try database.windowRuns(project: "Bench", count: 1, since: nil).first
        let now = (newest?.startedAt ?? 0) + 3_600
        let thresholds = FlakyThresholds()
        let flaky = try database.flakyReport(project: "Bench", runs: runs, since: nil, thresholds: thresholds, now: now)
        let mostFailing = flaky.flaky.max { ($0.failures, $1.test) < ($1.failures, $0.test) }?.test ?? ""
        let targets = Dictionary(uniqueKeysWithValues: ["DemoTests", "DemoIntegrationTests"].map { ($0, "h-\($0)") })
        let timed: [(id: String, text: String, body: () throws -> Void)] = [
            (
                "flaky", "report flaky --runs \(runs), with culprits",
                { _ = try Self.flakyWithCulprits(database, runs: runs) }
            ),
            (
                "pyramid", "report pyramid",
                {
                    _ = try database.pyramidReport(
                        project: "Bench", run: nil, since: nil, classifier: LayerClassifier())
                }
            ),
            (
                "culprit", "report culprit (the most failing flaky test)",
                {
                    _ = try database.culpritReport(
                        test: mostFailing, project: "Bench", runs: ReportCost.culpritRuns, since: nil)
                }
            ),
            (
                "run", "report run (the newest)",
                {
                    _ = try database.runReport(
                        run: nil, project: "Bench", base: "main", window: 30, thresholds: thresholds, now: now)
                }
            ),
            ("clusters", "report failures --clusters --runs \(runs)", { _ = try Self.clusters(database, runs: runs) }),
            (
                "slow", "report slow --runs \(runs / 2)",
                {
                    _ = try database.slowReport(
                        project: "Bench", runs: runs / 2, since: nil, thresholds: thresholds, criteria: .init(),
                        limit: 20)
                }
            ),
            (
                "cost", "report cost --runs \(runs)",
                {
                    _ = try database.costReport(
                        project: "Bench", runs: runs, since: nil, thresholds: thresholds, now: now)
                }
            ),
            ("trends", "report trends --by run over \(runs) runs", { _ = try Self.trends(database, since: 0) }),
            (
                "select", "select's reads (targets vouched for, \(runs) runs)",
                {
                    _ = try database.selectionHistory(
                        project: "Bench", hashes: targets, base: "main", branch: nil,
                        configuration: newest?.configuration ?? "", window: runs, thresholds: thresholds)
                }
            ),
        ]
        var figures = try timed.map { figure in
            GateLimits.Figure(
                id: figure.id, text: figure.text + " ÷ GROUP BY over \(results) results",
                ratio: try least(figure.body) / baseline)
        }
        let parallel = try ledger(tests: scenario.tests, workers: scenario.workers).database
        figures.append(
            .init(
                id: "flaky side by side",
                text: "report flaky --runs \(runs), tests run \(scenario.workers) at a time, ÷ its GROUP BY",
                ratio: try least { _ = try Self.flakyWithCulprits(parallel, runs: runs) } / groupBy(parallel)))
        return figures
    }

    /// What `report flaky` computes: the report, then each flaky test's culprit.
    static func flakyWithCulprits(_ database: LedgerDatabase, runs: Int) throws -> FlakyReport {
        let newest = try database.windowRuns(project: "Bench", count: 1, since: nil).first?.startedAt ?? 0
        let report = try database.flakyReport(
            project: "Bench", runs: runs, since: nil, thresholds: FlakyThresholds(), now: newest + 3_600)
        return try database.withCulprits(report, project: "Bench", runs: runs, since: nil)
    }

    /// `report trends --by run` over every run since `since`: a period per run, the most periods
    /// the runs can make.
    static func trends(_ database: LedgerDatabase, since: Double) throws -> TrendsReport {
        try database.trendsReport(
            project: "Bench", branch: nil, since: since, grouping: .run, window: 30, thresholds: FlakyThresholds(),
            classifier: LayerClassifier())
    }

    static func clusters(_ database: LedgerDatabase, runs: Int) throws -> [FailureCluster] {
        try database.failureClusters(project: "Bench", runs: runs, since: nil)
    }

    /// The cost of twice the input: `report flaky` and `report failures --clusters` over twice the
    /// tests and over twice the runs, and `report flaky` over twice the tests run side by side.
    func growth() throws -> [GateLimits.Figure] {
        let runs = scenario.runs
        let small = try ledger(tests: scenario.tests / 2).database
        let large = try ledger(tests: scenario.tests).database
        let smallParallel = try ledger(tests: scenario.tests / 2, workers: scenario.workers).database
        let largeParallel = try ledger(tests: scenario.tests, workers: scenario.workers).database
        let tests = "\(scenario.tests / 2) → \(scenario.tests) tests"
        let window = "\(runs / 2) → \(runs) runs"
        // In turn, twice as many times as the other figures, so that a drift of the machine's speed
        // meets both: the least of each.
        func ratio(_ larger: () throws -> Void, _ smaller: () throws -> Void) throws -> Double {
            var least = (larger: Double.infinity, smaller: Double.infinity)
            for _ in 0..<scenario.repeats * 2 {
                least.smaller = min(
                    least.smaller, try CPUTime.least(repeats: 1, { CPUTime.ofThisProcess }, measure: smaller))
                least.larger = min(
                    least.larger, try CPUTime.least(repeats: 1, { CPUTime.ofThisProcess }, measure: larger))
            }
            return least.larger / least.smaller
        }
        return [
            .init(
                id: "flaky ×2 tests", text: "report flaky, \(tests)",
                ratio: try ratio(
                    { _ = try Self.flakyWithCulprits(large, runs: runs) },
                    { _ = try Self.flakyWithCulprits(small, runs: runs) })),
            .init(
                id: "flaky ×2 runs", text: "report flaky, \(window)",
                ratio: try ratio(
                    { _ = try Self.flakyWithCulprits(large, runs: runs) },
                    { _ = try Self.flakyWithCulprits(large, runs: runs / 2) })),
            .init(
                id: "clusters ×2 tests", text: "report failures --clusters, \(tests)",
                ratio: try ratio(
                    { _ = try Self.clusters(large, runs: runs) }, { _ = try Self.clusters(small, runs: runs) })),
            .init(
                id: "clusters ×2 runs", text: "report failures --clusters, \(window)",
                ratio: try ratio(
                    { _ = try Self.clusters(large, runs: runs) }, { _ = try Self.clusters(large, runs: runs / 2) })),
            .init(
                id: "trends ×2 tests", text: "report trends --by run, \(tests)",
                ratio: try ratio({ _ = try Self.trends(large, since: 0) }, { _ = try Self.trends(small, since: 0) })),
            .init(
                id: "trends ×2 runs", text: "report trends --by run, \(window)",
                ratio: try ratio(
                    { _ = try Self.trends(large, since: 0) },
                    { _ = try Self.trends(large, since: try Self.start(ofNewest: runs / 2, in: large)) })),
            .init(
                id: "flaky side by side ×2 tests", text: "report flaky, tests side by side, \(tests)",
                ratio: try ratio(
                    { _ = try Self.flakyWithCulprits(largeParallel, runs: runs) },
                    { _ = try Self.flakyWithCulprits(smallParallel, runs: runs) })),
        ]
    }

    /// When the oldest of the newest `count` runs started.
    static func start(ofNewest count: Int, in database: LedgerDatabase) throws -> Double {
        try database.windowRuns(project: "Bench", count: count, since: nil).last?.startedAt ?? 0
    }

    /// Peak resident memory of `ingest` of the scenario's stream and of `report flaky` over the
    /// ledger it made, each in a process of its own.
    func memory() throws -> [GateLimits.Figure] {
        let (_, stream, results) = try ledger(tests: scenario.tests)
        let ledgerFile = folder.appending(path: "memory.sqlite")
        let ingest = try PeakMemory.child(["--peak-rss", "ledger", stream.path, ledgerFile.path])
        let flaky = try PeakMemory.child(["--peak-rss", "flaky", ledgerFile.path, String(scenario.runs)])
        return [
            .init(id: "ingest memory", text: "peak RSS of ingest of \(results) results", mebibytes: ingest),
            .init(id: "flaky memory", text: "peak RSS of report flaky over them", mebibytes: flaky),
        ]
    }
}
