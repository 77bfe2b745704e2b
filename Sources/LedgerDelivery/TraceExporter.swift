import Foundation
import LedgerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends traces to an OpenTelemetry collector, OTLP's JSON over HTTP: `export otlp` and
/// `serve --otlp-endpoint`.
public struct TraceExporter: Sendable {
    /// Where traces go.
    public let endpoint: URL
    /// Sent with every request.
    public let headers: [String: String]

    /// - Parameters:
    ///   - endpoint: the traces address (``tracesAddress(_:)`` makes one from a base address).
    ///   - headers: sent with every request.
    public init(endpoint: URL, headers: [String: String] = [:]) {
        self.endpoint = endpoint
        self.headers = headers
    }

    /// An exporter to `address` (a base address when `base`, see ``tracesAddress(_:base:)``), with
    /// the headers of `OTEL_EXPORTER_OTLP_HEADERS` in `environment` and then `extra` (each
    /// `NAME=VALUE`, winning over the environment's); `nil` when `address` is not an http(s) address.
    public init?(address: String, base: Bool = false, extra: [String] = [], environment: [String: String]) {
        guard let endpoint = Self.tracesAddress(address, base: base) else { return nil }
        var headers = Self.headers(environment["OTEL_EXPORTER_OTLP_HEADERS"] ?? "")
        for header in extra {
            headers.merge(Self.headers(header)) { _, given in given }
        }
        self.init(endpoint: endpoint, headers: headers)
    }

    /// `text` as given, or with `/v1/traces` after it when it names no path or is a base address (as
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` is, path and all); `nil` when it is not an http(s) address.
    public static func tracesAddress(_ text: String, base: Bool = false) -> URL? {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            return nil
        }
        return base || url.path.isEmpty || url.path == "/" ? url.appending(path: "v1/traces") : url
    }

    /// `key=value,key2=value2`, as `OTEL_EXPORTER_OTLP_HEADERS` writes them (values percent-encoded).
    public static func headers(_ text: String) -> [String: String] {
        var headers: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            headers[key] = parts[1].trimmingCharacters(in: .whitespaces).removingPercentEncoding
        }
        return headers
    }

    /// Posts `request`, within `budget` when one is given.
    /// - Returns: why the collector did not take it; `nil` when it did.
    public func send(_ request: OTLP.TracesRequest, budget: NetworkBudget? = nil) -> String? {
        var post = URLRequest(url: endpoint, timeoutInterval: 30)
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { post.setValue(value, forHTTPHeaderField: name) }
        guard let body = try? JSONEncoder().encode(request) else { return "the traces could not be encoded" }
        post.httpBody = body
        switch HTTPExchange.send(post, budget: budget) {
        case .failure(let error):
            return "\(endpoint.absoluteString) could not be reached: \(error.message)"
        case .success(let answer) where !(200..<300).contains(answer.status):
            let text = String(decoding: answer.body.prefix(300), as: UTF8.self)
            return "\(endpoint.absoluteString) answered HTTP \(answer.status): \(text)"
        case .success:
            return nil
        }
    }
}
