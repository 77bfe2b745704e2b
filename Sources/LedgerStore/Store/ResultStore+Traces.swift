import Foundation
import LedgerCore

extension ResultStore {
    /// A run as an OpenTelemetry trace (``OTLPTraces``): its attempts, each with what `show`
    /// gives of it.
    /// - Returns: the request to send and how many spans it holds.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    public func traces(run id: String) throws -> (request: OTLP.TracesRequest, spans: Int) {
        guard let listing = try run(id: id), let window = try windowRun(id: id) else { throw StoreError.noSuchRun(id) }
        let attempts = try attempts(run: id)
        var details: [OTLPTraces.AttemptKey: TestDetail] = [:]
        for attempt in attempts {
            details[.init(test: attempt.test, attempt: attempt.attempt)] = try testDetail(
                test: attempt.test, run: id, project: nil, attempt: attempt.attempt)
        }
        let run = OTLPTraces.Run(
            id: id, project: listing.project, source: listing.source, branch: listing.branch,
            revision: listing.revision, configuration: listing.configuration, build: listing.build,
            startedAt: window.startedAt,
            endedAt: listing.endedAt.flatMap { try? Date($0, strategy: .iso8601).timeIntervalSince1970 },
            outcome: listing.endedAt == nil ? nil : listing.status.rawValue)
        let spans = OTLPTraces.resourceSpans(run, attempts: attempts, details: details)
        return (OTLP.TracesRequest(resourceSpans: [spans]), spans.scopeSpans.reduce(0) { $0 + $1.spans.count })
    }
}
