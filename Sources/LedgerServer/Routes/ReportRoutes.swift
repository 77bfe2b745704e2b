import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

/// The read side: the same JSON as the CLI's `--format json`.
///
/// `GET /api/v1/projects`, and under `/api/v1/projects/{project}`: `runs`, `runs/{id}`,
/// `runs/{id}/report` (`?base=`, `?runs=`: what each failure means, as `report run`), `pyramid` (`?run=`, `?since=`), `flaky` (`?runs=`, `?since=`), `cost` (`?runs=`, `?since=`,
/// `?owner=`), `shard-timings` (`?runs=`, `?exclude-revision=`), `known-tests` (`?base=`,
/// `?configuration=`), `tests/{test id}` (`?run=`, `?attempt=`) and
/// `tests/{test id}/culprit` (`?runs=`, `?since=`, `?configuration=`) and `tests/{test id}/history`
/// (`?limit=`: its attempts in the newest runs). A test whose own id ends in `/culprit` or
/// `/history` is named with its slash encoded, `%2F`.
struct ReportRoutes {
    let database: any ResultStore
    let access: Access
    let layers: LayerClassifier
    let thresholds: FlakyThresholds
    /// How many of the newest runs a run's report judges its failures by.
    let window: Int

    /// What `tests/{test id}/…` asks of a test besides its detail.
    private enum TestAspect: String {
        case culprit, history
    }

    func add(to router: Router<LedgerRequestContext>) {
        let database = self.database
        router.get("/api/v1/projects") { _, context in
            let projects = try await Blocking.run { try database.projects() }
            return try JSONResponse.make(try access.visible(projects, context))
        }
        let project = router.group("/api/v1/projects/:project")
        project.get("runs") { request, context in
            let name = try access.readable(context)
            let limit = request.count("limit", default: 50)
            return try JSONResponse.make(try await Blocking.run { try database.runs(project: name, limit: limit) })
        }
        project.get("runs/:run") { _, context in
            let name = try access.readable(context)
            let id = try context.parameters.require("run")
            let run = try await Blocking.run { try database.run(id: id) }
            guard let run, run.project == name else { throw HTTPError(.notFound, message: "no run \(id) in \(name)") }
            return try JSONResponse.make(run)
        }
        project.get("runs/:run/report") { request, context in
            let name = try access.readable(context)
            let id = try context.parameters.require("run")
            let (base, runs, thresholds) = (request.base, request.count("runs", default: window), self.thresholds)
            return try JSONResponse.make(
                try await Blocking.lookup {
                    try database.runReport(
                        run: id, project: name, base: base, window: runs, thresholds: thresholds,
                        now: Date().timeIntervalSince1970
                    ).owned(by: try database.testOwners(project: name))
                })
        }
        project.get("pyramid") { request, context in
            let name = try access.readable(context)
            let run = request.uri.queryParameters.get("run")
            let since = try request.since()
            let layers = self.layers
            return try JSONResponse.make(
                try await Blocking.lookup {
                    try database.pyramidReport(project: name, run: run, since: since, classifier: layers)
                })
        }
        project.get("flaky") { request, context in
            let name = try access.readable(context)
            let runs = request.count("runs", default: 30)
            let since = try request.since()
            let thresholds = self.thresholds
            let owner = request.uri.queryParameters.get("owner").map { String($0) }
            return try JSONResponse.make(
                try await Blocking.lookup {
                    let owners = try database.testOwners(project: name)
                    // With each flaky test's culprit, as `report flaky` prints it.
                    let report = try database.withCulprits(
                        try database.flakyReport(
                            project: name, runs: runs, since: since, thresholds: thresholds,
                            now: Date().timeIntervalSince1970),
                        project: name, runs: runs, since: since
                    ).owned(by: owners)
                    return owner.map { report.only(owner: $0, owners: owners) } ?? report
                })
        }
        project.get("slow") { request, context in
            let name = try access.readable(context)
            let runs = request.count("runs", default: 30)
            let since = try request.since()
            let thresholds = self.thresholds
            return try JSONResponse.make(
                try await Blocking.lookup {
                    try database.slowReport(
                        project: name, runs: runs, since: since, thresholds: thresholds, criteria: .init(),
                        limit: request.count("limit", default: 20)
                    ).owned(by: try database.testOwners(project: name))
                })
        }
        project.get("cost") { request, context in
            let name = try access.readable(context)
            let runs = request.count("runs", default: 30)
            let since = try request.since()
            let owner = request.uri.queryParameters.get("owner").map { String($0) }
            let thresholds = self.thresholds
            return try JSONResponse.make(
                try await Blocking.lookup {
                    let owners = try database.testOwners(project: name)
                    let report = try database.costReport(
                        project: name, runs: runs, since: since, thresholds: thresholds,
                        now: Date().timeIntervalSince1970
                    ).owned(by: owners)
                    return owner.map { report.only(owner: $0, owners: owners) } ?? report
                })
        }
        // What `record --shard` and `--repeat-new` plan with on a CI machine whose own ledger is new.
        project.get("shard-timings") { request, context in
            let name = try access.ciReadable(context)
            let runs = request.count("runs", default: 30)
            let revision = request.uri.queryParameters.get("exclude-revision").map { String($0) }
            let thresholds = self.thresholds
            return try JSONResponse.make(
                try await Blocking.lookup {
                    try database.shardDurations(
                        project: name, runs: runs, since: nil, thresholds: thresholds,
                        now: Date().timeIntervalSince1970, excludingRevision: revision)
                })
        }
        project.get("known-tests") { request, context in
            let name = try access.ciReadable(context)
            let base = request.uri.queryParameters.get("base").map { String($0) } ?? "main"
            let configuration = request.uri.queryParameters.get("configuration").map { String($0) } ?? ""
            return try JSONResponse.make(
                try await Blocking.lookup {
                    try database.knownTests(
                        project: name, configuration: configuration, base: base, at: Date().timeIntervalSince1970)
                })
        }
        project.get("failures") { request, context in
            let name = try access.readable(context)
            let runs = request.count("runs", default: 30)
            let since = try request.since()
            return try JSONResponse.make(
                try await Blocking.lookup {
                    try database.failureGroups(project: name, runs: runs, since: since)
                        .owned(by: try database.testOwners(project: name))
                })
        }
        project.get("tests/**") { request, context in
            let name = try access.readable(context)
            var segments = context.parameters.getCatchAll().map(String.init)
            let aspect = segments.count > 1 ? segments.last.flatMap(TestAspect.init(rawValue:)) : nil
            if aspect != nil { segments.removeLast() }
            guard let test = segments.joined(separator: "/").removingPercentEncoding, !test.isEmpty else {
                throw HTTPError(.badRequest, message: "name a test: /api/v1/projects/\(name)/tests/<test id>")
            }
            if aspect == .history {
                let limit = request.count("limit", default: 20)
                return try JSONResponse.make(
                    try await Blocking.lookup {
                        let history = try database.outcomeHistory(project: name, test: test, limit: limit)
                        guard !history.isEmpty else { throw StoreError.noSuchTest(test) }
                        return history
                    })
            }
            if aspect == .culprit {
                let runs = request.count("runs", default: CulpritAnalysis.defaultRuns)
                let since = try request.since()
                let configuration = request.uri.queryParameters.get("configuration").map { String($0) }
                return try JSONResponse.make(
                    try await Blocking.lookup {
                        try database.culpritReport(
                            test: test, project: name, runs: runs, since: since, configuration: configuration)
                    })
            }
            let run = request.uri.queryParameters.get("run")
            var attempt: Int?
            if let text = request.uri.queryParameters.get("attempt") {
                guard let number = Int(text), number >= 1 else {
                    throw HTTPError(.badRequest, message: "attempt=\(text): an attempt counts from 1")
                }
                attempt = number
            }
            return try JSONResponse.make(
                try await Blocking.lookup { [attempt] in
                    try database.testDetail(test: test, run: run, project: name, attempt: attempt)
                        .owned(by: try database.testOwners(project: name))
                })
        }
    }
}
