import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends runs to an OpenTelemetry collector as traces, OTLP's JSON over HTTP.
struct OTLPExport {
    /// Where traces go: the endpoint's `/v1/traces`, unless it names a path of its own.
    var endpoint: URL
    /// Sent with every request (`OTEL_EXPORTER_OTLP_HEADERS`, `--header`).
    var headers: [String: String]

    /// `URL` as given, or with `/v1/traces` after it when it names no path (as
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` is a base address).
    static func tracesAddress(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            return nil
        }
        return url.path.isEmpty || url.path == "/" ? url.appending(path: "v1/traces") : url
    }

    /// `key=value,key2=value2`, as `OTEL_EXPORTER_OTLP_HEADERS` writes them.
    static func headers(_ text: String) -> [String: String] {
        var headers: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            headers[key] = parts[1].trimmingCharacters(in: .whitespaces).removingPercentEncoding
        }
        return headers
    }

    /// One run's trace, read from `database`.
    static func traces(run id: String, in database: any ResultStore) throws -> (OTLP.TracesRequest, spans: Int) {
        guard let listing = try database.run(id: id), let window = try database.windowRun(id: id) else {
            throw StoreError.noSuchRun(id)
        }
        let attempts = try database.attempts(run: id)
        var details: [String: TestDetail] = [:]
        for test in Set(attempts.map(\.test)) { details[test] = try database.testDetail(test: test, run: id) }
        let run = OTLPTraces.Run(
            id: id, project: listing.project, source: listing.source, branch: listing.branch,
            revision: listing.revision, configuration: listing.configuration, build: listing.build,
            startedAt: window.startedAt,
            endedAt: listing.endedAt.flatMap { try? Date($0, strategy: .iso8601).timeIntervalSince1970 },
            outcome: listing.endedAt == nil ? nil : listing.status.rawValue)
        let spans = OTLPTraces.resourceSpans(run, attempts: attempts, details: details)
        return (OTLP.TracesRequest(resourceSpans: [spans]), spans.scopeSpans.reduce(0) { $0 + $1.spans.count })
    }

    /// Posts `request`.
    /// - Returns: why the collector did not take it; `nil` when it did.
    func send(_ request: OTLP.TracesRequest) throws -> String? {
        var post = URLRequest(url: endpoint, timeoutInterval: 30)
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { post.setValue(value, forHTTPHeaderField: name) }
        post.httpBody = try JSONEncoder().encode(request)
        switch HTTPExchange.send(post) {
        case .failure(let error):
            return "\(endpoint.absoluteString) could not be reached: \(error.message)"
        case .success(let answer) where !(200..<300).contains(answer.status):
            let body = String(decoding: answer.body.prefix(300), as: UTF8.self)
            return "\(endpoint.absoluteString) answered HTTP \(answer.status): \(body)"
        case .success:
            return nil
        }
    }
}
