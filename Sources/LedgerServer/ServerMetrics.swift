import Foundation

/// The server's counters, shown in Prometheus' text format at `GET /metrics`.
public final class ServerMetrics: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String: Int] = [:]
    private var ingestedResults = 0
    private var rejectedInputs = 0
    private var underWay = 0
    /// Request latency histogram: upper bounds in seconds, and counts.
    private static let bounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    private var buckets = [Int](repeating: 0, count: bounds.count)
    private var latencyCount = 0
    private var latencySum = 0.0

    /// Creates the counters, all at zero.
    public init() {}

    /// The requests the server has begun and not yet answered.
    public var requestsUnderWay: Int { lock.withLock { underWay } }

    func began() { lock.withLock { underWay += 1 } }

    func request(route: String, status: Int, since started: UInt64) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        lock.withLock {
            underWay -= 1
            requests["route=\"\(Self.escape(route))\",status=\"\(status)\"", default: 0] += 1
            for (index, bound) in Self.bounds.enumerated() where seconds <= bound { buckets[index] += 1 }
            latencyCount += 1
            latencySum += seconds
        }
    }

    func ingested(_ results: Int) { lock.withLock { ingestedResults += results } }

    func rejected() { lock.withLock { rejectedInputs += 1 } }

    /// The Prometheus exposition text.
    public var text: String {
        lock.withLock {
            var lines = [
                "# HELP testledger_http_requests_total HTTP requests by route and status.",
                "# TYPE testledger_http_requests_total counter",
            ]
            lines += requests.keys.sorted().map { "testledger_http_requests_total{\($0)} \(requests[$0] ?? 0)" }
            lines += [
                "# HELP testledger_ingested_results_total Test attempts stored from uploads.",
                "# TYPE testledger_ingested_results_total counter",
                "testledger_ingested_results_total \(ingestedResults)",
                "# HELP testledger_rejected_inputs_total Uploads refused as malformed or too large.",
                "# TYPE testledger_rejected_inputs_total counter",
                "testledger_rejected_inputs_total \(rejectedInputs)",
                "# HELP testledger_http_requests_in_flight Requests begun and not yet answered.",
                "# TYPE testledger_http_requests_in_flight gauge",
                "testledger_http_requests_in_flight \(underWay)",
                "# HELP testledger_http_request_duration_seconds Request latency.",
                "# TYPE testledger_http_request_duration_seconds histogram",
            ]
            for (index, bound) in Self.bounds.enumerated() {
                lines.append("testledger_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(buckets[index])")
            }
            lines += [
                "testledger_http_request_duration_seconds_bucket{le=\"+Inf\"} \(latencyCount)",
                "testledger_http_request_duration_seconds_sum \(latencySum)",
                "testledger_http_request_duration_seconds_count \(latencyCount)",
            ]
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
