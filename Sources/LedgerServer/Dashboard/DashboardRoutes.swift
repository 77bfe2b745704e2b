import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

/// The dashboard: server-rendered HTML pages over the same reports as the JSON API.
///
/// `GET /` (projects), `/projects/{project}` (`?runs=`, `?since=`, `?base=`),
/// `/projects/{project}/runs/{run}` (`?base=`), `/projects/{project}/tests/{test id}` (`?run=`),
/// and `GET`/`POST /login`. Failures are judged against `?base=`, `main` by default.
struct DashboardRoutes {
    let database: any ResultStore & CredentialStore
    let access: Access
    let layers: LayerClassifier
    let thresholds: FlakyThresholds
    /// How many of the newest runs the pages judge by (`.testledger.yml`'s `window`).
    let window: Int
    /// How sign-ins last and whether their cookie must be `Secure`.
    var sessions = SessionPolicy()
    /// Runs in a test page's history.
    static let historyLength = 30
    /// The runs of a test its page draws week by week.
    static let trendRuns = 400

    func add(to router: Router<LedgerRequestContext>) {
        let database = self.database
        router.get("/") { _, context in
            try await page {
                let projects = try await Blocking.run { try database.projects() }
                return ProjectsPage.render(try access.visible(projects, context))
            }
        }
        router.get("/projects/:project") { request, context in
            try await page {
                let project = try access.readable(context)
                let runs = request.count("runs", default: window)
                let since = try request.since()
                let base = request.base
                let (layers, thresholds) = (self.layers, self.thresholds)
                return ProjectPage.render(
                    try await Blocking.lookup {
                        try Self.content(project, runs: runs, since: since, base: base, layers, thresholds, database)
                    })
            }
        }
        router.get("/projects/:project/runs/:run") { request, context in
            try await page {
                let project = try access.readable(context)
                let id = try context.parameters.require("run")
                let (base, thresholds, window) = (request.base, self.thresholds, self.window)
                return RunPage.render(
                    try await Blocking.lookup {
                        guard let run = try database.run(id: id), run.project == project else {
                            throw StoreError.noSuchRun(id)
                        }
                        return RunPage.Content(
                            run: run,
                            report: try Self.runReport(id, project, base: base, window: window, thresholds, database),
                            timelines: try Self.timelines(of: id, in: database))
                    })
            }
        }
        router.get("/projects/:project/tests/**") { request, context in
            try await page {
                let project = try access.readable(context)
                let test = context.parameters.getCatchAll().joined(separator: "/").removingPercentEncoding ?? ""
                guard !test.isEmpty else { throw HTTPError(.notFound, message: "name a test") }
                let run = request.uri.queryParameters.get("run").map { String($0) }
                let (detail, long, culprit, fix) = try await Blocking.lookup {
                    (
                        try database.testDetail(test: test, run: run, project: project)
                            .owned(by: try database.testOwners(project: project)),
                        try database.outcomeHistory(project: project, test: test, limit: Self.trendRuns),
                        try database.culpritReportIfInWindow(
                            test: test, project: project, runs: window),
                        try database.fixes(project: project).first { $0.test == test }
                    )
                }
                return TestPage.render(
                    project: project, detail: detail, history: Array(long.prefix(Self.historyLength)),
                    culprit: culprit, fix: fix, longHistory: long.filter { $0.kind == nil })
            }
        }
        addLogin(to: router)
    }

    /// How far back the project page's trends reach.
    static let trendsDays = 90.0

    /// Everything the project page shows, read in one go off the cooperative pool.
    static func content(
        _ project: String, runs count: Int, since: Double?, base: String, _ layers: LayerClassifier,
        _ thresholds: FlakyThresholds, _ database: any ResultStore
    ) throws -> ProjectPage.Content {
        let runs = try database.runs(project: project, limit: 20)
        guard !runs.isEmpty else { throw StoreError.noSuchRun("of project \(project)") }
        // The suite's newest run: a verification's runs are one test's, listed but not the head.
        let newest = runs.first { $0.kind == nil }
        let owners = try database.testOwners(project: project)
        let pyramid: PyramidReport?
        do {
            pyramid = try database.pyramidReport(project: project, run: nil, since: since, classifier: layers)
        } catch StoreError.noSuchRun {
            pyramid = nil
        }
        let flaky = try database.flakyReport(
            project: project, runs: count, since: since, thresholds: thresholds, now: Date().timeIntervalSince1970
        ).owned(by: owners)
        let tests = Array(Set(flaky.flaky.map(\.test) + flaky.broken.map(\.test)))
        let strips = try database.outcomeStrips(project: project, tests: tests, runs: count, since: since)
        let quarantined = try database.quarantined(project: project, at: Date().timeIntervalSince1970)
        let log = try database.quarantineLog(project: project)
        let quarantine = QuarantineSection.Content(
            entries: quarantined, results: try database.resultsInQuarantine(quarantined),
            changes: Array(log.suffix(20).reversed()))
        return .init(
            project: project, pyramid: pyramid, flaky: flaky, strips: strips, runs: runs, quarantine: quarantine,
            newest: try newest.map { try runReport($0.id, project, base: base, window: count, thresholds, database) },
            cost: try database.costReport(
                project: project, runs: count, since: since, thresholds: thresholds, now: Date().timeIntervalSince1970
            ).owned(by: owners),
            trends: try database.trendsReport(
                project: project, branch: base, orEveryBranch: true,
                since: Date().timeIntervalSince1970 - Self.trendsDays * 86_400, grouping: .week, window: count,
                thresholds: thresholds, classifier: layers),
            events: TrendsSection.events(quarantine: log, fixes: try database.fixes(project: project), runs: runs))
    }

    /// A run's failures classified against `base`, with their owners.
    static func runReport(
        _ run: String, _ project: String, base: String, window: Int, _ thresholds: FlakyThresholds,
        _ database: any ResultStore
    ) throws -> RunReport {
        try database.runReport(
            run: run, project: project, base: base, window: window, thresholds: thresholds,
            now: Date().timeIntervalSince1970
        ).owned(by: try database.testOwners(project: project))
    }

    /// The run's first failing attempts that had other tests beside them, with everyone's steps.
    static func timelines(of run: String, in database: any ResultStore) throws -> [AttemptTimeline] {
        let timelines = AttemptTimeline.failing(in: try database.attempts(run: run), limit: RunPage.timelinesShown)
        guard !timelines.isEmpty else { return [] }
        let steps = try database.steps(run: run, tests: timelines.reduce(into: Set()) { $0.formUnion($1.tests) })
        return timelines.map { $0.withSteps(steps) }
    }

    /// A page, or the page saying why it cannot be shown (401 offers the login form).
    private func page(_ render: () async throws -> HTML) async throws -> Response {
        do {
            return DashboardResponse.page(try await render())
        } catch let error as HTTPError {
            return DashboardResponse.error(error.status, message: error.body)
        }
    }
}
