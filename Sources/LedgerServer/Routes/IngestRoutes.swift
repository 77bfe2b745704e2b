import Foundation
import Hummingbird
import LedgerCore
import LedgerDelivery
import LedgerImport
import LedgerStore
import Logging

/// `POST /api/v1/events` (the Ledger event stream) and `POST /api/v1/imports` (a runner's own
/// file). Each upload is one transaction: malformed input gets 400 and stores nothing, and the
/// same upload twice stores once.
struct IngestRoutes {
    let database: any ResultStore
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let access: Access

    func add(to router: Router<LedgerRequestContext>) {
        router.post("/api/v1/events") { request, context in
            let project = try access.writer(context)
            let live = request.uri.queryParameters.get("live") == "1"
            return try await store(request, format: .ledger, metadata: RunMetadata(project: project), live: live)
        }
        router.post("/api/v1/imports") { request, context in
            let project = try access.writer(context)
            let requested = request.uri.queryParameters.get("format") ?? "auto"
            let format: InputFormat?
            if requested == "auto" {
                format = nil
            } else if let known = InputFormat(rawValue: requested) {
                format = known
            } else {
                throw HTTPError(
                    .badRequest,
                    message: "format \(requested) is not one of auto, "
                        + InputFormat.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return try await store(request, format: format, metadata: Self.metadata(request, project: project))
        }
    }

    /// Run metadata from query parameters (`revision`, `branch`, `build`, `configuration`) or
    /// `X-Testledger-…` headers, resolved as the CLI resolves its flags; the server's own
    /// environment, git and host say nothing about a client's run.
    static func metadata(_ request: Request, project: String) -> RunMetadata {
        func value(_ name: String) -> String? {
            request.uri.queryParameters.get(name).map { String($0) } ?? request.header("x-testledger-\(name)")
        }
        return RunMetadata.resolve(
            given: .init(
                project: project, revision: value("revision"), branch: value("branch"), build: value("build"),
                configuration: value("configuration")),
            environment: [:], git: { _ in nil }, host: nil)
    }

    /// Spools the body and stores it. `live` keeps attempts without an end running, for a
    /// recorder's batches that the next batch completes.
    private func store(_ request: Request, format: InputFormat?, metadata: RunMetadata, live: Bool = false)
        async throws -> Response
    {
        let gzip = request.headers[.contentEncoding]?.lowercased().contains("gzip") == true
        let file: URL
        do {
            file = try await BodySpool.write(request.body, gzip: gzip, limit: configuration.maximumBodyBytes)
        } catch {
            metrics.rejected()
            throw error
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let database = self.database
        let configuration = self.configuration
        do {
            let (stored, changes) = try await Blocking.run {
                let receipt = try Self.ingest(file, format: format, metadata: metadata, live: live, into: database)
                let changes = try database.afterRunsStored(
                    receipt.runs, policy: Self.afterStored(configuration, live: live))
                return (receipt, changes)
            }
            if !live {
                configuration.notifications?.start(
                    TestNotification.of(quarantine: changes.quarantine, fixes: changes.fixes),
                    after: stored.results > 0 ? stored.runs : [],
                    configuration: configuration, database: database, logger: Logger(label: "testledger"))
            }
            metrics.ingested(stored.results)
            if !live, let traces = configuration.traces { Self.forward(stored.runs, to: traces, from: database) }
            return try JSONResponse.make(stored, status: .created)
        } catch let error as LedgerInputError {
            metrics.rejected()
            throw HTTPError(.badRequest, message: error.from(source: "request body").description)
        } catch let error as StoreSink.Problem {
            metrics.rejected()
            throw HTTPError(.badRequest, message: "request body: \(error.message)")
        } catch let error as StoreError {
            guard case .unstorable = error else { throw error }
            metrics.rejected()
            throw HTTPError(.badRequest, message: "request body: \(error)")
        }
    }

    /// Sends each of `runs` that has ended to the collector as a trace, after the answer: a
    /// collector that is down or slow never holds an upload up. What it refuses is logged.
    static func forward(_ runs: [String], to traces: TraceExporter, from database: any ResultStore) {
        Task.detached {
            let logger = Logger(label: "testledger")
            for run in runs {
                do {
                    let problem = try await Blocking.run { () -> String? in
                        guard try database.run(id: run)?.endedAt != nil else { return nil }
                        return traces.send(try database.traces(run: run).request)
                    }
                    if let problem { logger.warning("run \(run) was not sent as a trace: \(problem)") }
                } catch {
                    logger.warning("run \(run) was not sent as a trace: \(error)")
                }
            }
        }
    }

    /// What is done after an upload is stored: its muted tests flagged and, once a batch is not
    /// live (a recorder's batch is followed by more of the run), the server's automatic quarantine
    /// applied and its fixes followed. Ownership comes in its own request (`PUT /api/v1/ownership`).
    static func afterStored(_ configuration: ServerConfiguration, live: Bool) -> RunStoredPolicy {
        guard !live else { return RunStoredPolicy() }
        return RunStoredPolicy(
            automaticQuarantine: RunStoredPolicy.AutomaticQuarantine(
                configuration.quarantine, window: configuration.window, thresholds: configuration.thresholds),
            fixLanding: configuration.fixLanding)
    }

    /// Stores one uploaded file; an imported file's run id comes from its content and project.
    static func ingest(
        _ file: URL, format: InputFormat?, metadata: RunMetadata, live: Bool, into database: any ResultStore
    ) throws -> IngestReceipt {
        let prepared = try PreparedImport(
            file: file, sourceName: "request body", format: format, formatOption: "?format=", metadata: metadata,
            fallbackStart: Date().timeIntervalSince1970)
        let summary = try database.ingest(keepRunning: live) { sink in
            sink.onlyProject = metadata.project
            var projected = ProjectSink(base: sink, project: metadata.project)
            defer { sink = projected.base }
            try prepared.run(into: &projected)
        }
        return IngestReceipt(
            format: prepared.format.rawValue, runs: summary.runs, results: summary.results,
            alreadyStored: summary.alreadyStored, crashed: summary.crashed, warnings: summary.warnings)
    }
}

/// Passes events on with every run's project set to the token's: a write token decides where
/// its uploads go, whatever they say.
struct ProjectSink<Base: EventSink>: EventSink {
    var base: Base
    let project: String

    mutating func consume(_ record: LedgerRecord) throws {
        guard case .runStart(var start) = record.event else { return try base.consume(record) }
        start.project = project
        try base.consume(LedgerRecord(run: record.run, event: .runStart(start)))
    }

    mutating func warn(_ message: String) {
        base.warn(message)
    }
}
