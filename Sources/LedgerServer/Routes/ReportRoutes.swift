import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

/// The read side: the same JSON as the CLI's `--format json`.
///
/// `GET /api/v1/projects`, and under `/api/v1/projects/{project}`: `runs`, `runs/{id}`,
/// `runs/{id}/report` (`?base=`, `?runs=`: what each failure means, as `report run`), `pyramid` (`?run=`, `?since=`), `flaky` (`?runs=`, `?since=`), `cost` (`?runs=`, `?since=`,
/// `?owner=`), `trends` (`?by=`, `?since=`, `?branch=`), `shard-timings` (`?runs=`, `?exclude-revision=`), `target-hashes` (`?hashes=`, `?base=`, `?branch=`), `known-tests` (`?base=`,
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
    /// The branch `trends` reads unless `?branch=` names another.
    var defaultBranch = "main"

    /// What `tests/{test id}/…` asks of a test besides its detail.
    private enum TestAspect: String {
        case culprit, history, status
    }

    func add(to router: Router<LedgerRequestContext>) {
        router.addRoutes(routes, atPath: "/api/v1/projects")
    }

    /// One handler per endpoint, under `/api/v1/projects`.
    var routes: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get(use: projects)
        routes.get(":project/runs", use: runs)
        routes.get(":project/runs/:run", use: run)
        routes.get(":project/runs/:run/report", use: runReport)
        routes.get(":project/pyramid", use: pyramid)
        routes.get(":project/flaky", use: flaky)
        routes.get(":project/slow", use: slow)
        routes.get(":project/cost", use: cost)
        routes.get(":project/trends", use: trends)
        // What `record --shard` and `--repeat-new` plan with on a CI machine whose own ledger is new.
        routes.get(":project/shard-timings", use: shardTimings)
        routes.get(":project/known-tests", use: knownTests)
        routes.get(":project/target-hashes", use: targetHashes)
        routes.get(":project/failures", use: failures)
        routes.get(":project/selection", use: selection)
        routes.get(":project/tests/**", use: test)
        return routes
    }

    @Sendable func projects(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let projects = try await Blocking.run { try database.projects() }
        return try JSONResponse.make(try access.visible(projects, context))
    }

    @Sendable func runs(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let limit = request.count("limit", default: 50)
        return try JSONResponse.make(try await Blocking.run { try database.runs(project: name, limit: limit) })
    }

    @Sendable func run(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let id = try context.parameters.require("run")
        let run = try await Blocking.run { try database.run(id: id) }
        guard let run, run.project == name else { throw HTTPError(.notFound, message: "no run \(id) in \(name)") }
        return try JSONResponse.make(run)
    }

    @Sendable func runReport(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let id = try context.parameters.require("run")
        let (base, runs) = (request.base, request.count("runs", default: window))
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.runReport(
                    run: id, project: name, base: base, window: runs, thresholds: thresholds,
                    now: Date().timeIntervalSince1970
                ).owned(by: try database.testOwners(project: name))
            })
    }

    @Sendable func pyramid(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let run = request.uri.queryParameters.get("run").map { String($0) }
        let since = try request.since()
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.pyramidReport(project: name, run: run, since: since, classifier: layers)
            })
    }

    /// With each flaky test's culprit, as `report flaky` prints it.
    @Sendable func flaky(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let (runs, since, owner) = (request.count("runs", default: window), try request.since(), request.owner)
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.withCulprits(
                    try database.flakyReport(
                        project: name, runs: runs, since: since, thresholds: thresholds,
                        now: Date().timeIntervalSince1970),
                    project: name, runs: runs, since: since
                ).scoped(to: owner, owners: try database.testOwners(project: name))
            })
    }

    @Sendable func slow(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let (runs, since, limit) = (
            request.count("runs", default: window), try request.since(), request.count("limit", default: 20)
        )
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.slowReport(
                    project: name, runs: runs, since: since, thresholds: thresholds, criteria: .init(), limit: limit
                ).owned(by: try database.testOwners(project: name))
            })
    }

    @Sendable func cost(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let (runs, since, owner) = (request.count("runs", default: window), try request.since(), request.owner)
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.costReport(
                    project: name, runs: runs, since: since, thresholds: thresholds,
                    now: Date().timeIntervalSince1970
                ).scoped(to: owner, owners: try database.testOwners(project: name))
            })
    }

    @Sendable func shardTimings(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.ciReadable(context)
        let runs = request.count("runs", default: window)
        let revision = request.uri.queryParameters.get("exclude-revision").map { String($0) }
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.shardDurations(
                    project: name, runs: runs, since: nil, thresholds: thresholds,
                    now: Date().timeIntervalSince1970, excludingRevision: revision)
            })
    }

    @Sendable func knownTests(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.ciReadable(context)
        let base = request.uri.queryParameters.get("base").map { String($0) } ?? "main"
        let configuration = request.uri.queryParameters.get("configuration").map { String($0) } ?? ""
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.knownTests(
                    project: name, configuration: configuration, base: base, at: Date().timeIntervalSince1970)
            })
    }

    /// What `select` and `record --select` need: `?hashes=` (a JSON object of each test target's
    /// hash), `?base=`, `?branch=`, `?configuration=`, `?runs=`.
    @Sendable func targetHashes(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.ciReadable(context)
        let query = request.uri.queryParameters
        guard let text = query.get("hashes"),
            let hashes = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        else {
            throw HTTPError(
                .badRequest, message: "target-hashes needs ?hashes= a JSON object of each test target's hash")
        }
        let base = query.get("base").map { String($0) } ?? "main"
        let branch = query.get("branch").map { String($0) }
        let configuration = query.get("configuration").map { String($0) } ?? ""
        let runs = request.count("runs", default: window)
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.selectionHistory(
                    project: name, hashes: hashes, base: base, branch: branch, configuration: configuration,
                    window: runs, thresholds: thresholds)
            })
    }

    @Sendable func failures(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        let (runs, since) = (request.count("runs", default: window), try request.since())
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.failureGroups(project: name, runs: runs, since: since)
                    .owned(by: try database.testOwners(project: name))
            })
    }

    /// `tests/{test id}`, its `/history`, its `/culprit` or its `/status`.
    @Sendable func test(_ request: Request, context: LedgerRequestContext) async throws -> Response {
        let name = try access.readable(context)
        var segments = context.parameters.getCatchAll().map(String.init)
        let aspect = segments.count > 1 ? segments.last.flatMap(TestAspect.init(rawValue:)) : nil
        if aspect != nil { segments.removeLast() }
        guard let test = segments.joined(separator: "/").removingPercentEncoding, !test.isEmpty else {
            throw HTTPError(.badRequest, message: "name a test: /api/v1/projects/\(name)/tests/<test id>")
        }
        switch aspect {
        case .history: return try await history(of: test, project: name, request)
        case .culprit: return try await culprit(of: test, project: name, request)
        case .status: return try await status(of: test, project: name, request)
        case nil: return try await detail(of: test, project: name, request)
        }
    }

    private func history(of test: String, project: String, _ request: Request) async throws -> Response {
        let limit = request.count("limit", default: 20)
        return try JSONResponse.make(
            try await Blocking.lookup {
                let history = try database.outcomeHistory(project: project, test: test, limit: limit)
                guard !history.isEmpty else { throw StoreError.noSuchTest(test) }
                return history
            })
    }

    private func culprit(of test: String, project: String, _ request: Request) async throws -> Response {
        let (runs, since) = (request.count("runs", default: window), try request.since())
        let configuration = request.uri.queryParameters.get("configuration").map { String($0) }
        return try JSONResponse.make(
            try await Blocking.lookup {
                try database.culpritReport(
                    test: test, project: project, runs: runs, since: since, configuration: configuration)
            })
    }

    private func detail(of test: String, project: String, _ request: Request) async throws -> Response {
        let run = request.uri.queryParameters.get("run").map { String($0) }
        var attempt: Int?
        if let text = request.uri.queryParameters.get("attempt") {
            guard let number = Int(text), number >= 1 else {
                throw HTTPError(.badRequest, message: "attempt=\(text): an attempt counts from 1")
            }
            attempt = number
        }
        return try JSONResponse.make(
            try await Blocking.lookup { [attempt] in
                try database.testDetail(test: test, run: run, project: project, attempt: attempt)
                    .owned(by: try database.testOwners(project: project))
            })
    }
}
