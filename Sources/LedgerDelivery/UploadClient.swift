import Foundation
import LedgerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends Ledger event batches to `testledger serve` (`POST /api/v1/events`): the one client and
/// the one retry loop of the test library and the `upload` command.
///
/// A send that fails on the network or with a retryable answer (``ResendPolicy/isRetryable(status:)``)
/// is tried again after each of the policy's delays; other answers are final.
public struct UploadClient: Sendable {
    /// What became of one batch.
    public enum Delivery: Sendable, Equatable {
        /// The server stored the batch and answered with this receipt.
        case stored(IngestReceipt)
        /// The server answered, and would answer the same again (4xx, or not a receipt).
        case refused(status: Int, message: String)
        /// Still failing after every retry: the last failure.
        case unreachable(String)
    }

    /// The server's base URL; batches go to its `api/v1/events`.
    public let server: URL
    /// The write token, sent as a bearer token in the `Authorization` header.
    public let token: String
    /// How often, and after which delays, a failing send is tried again.
    public let policy: ResendPolicy
    /// Seconds a request may wait for the server.
    public let timeout: Double
    /// Waits between tries; tests pass one that returns at once.
    public let sleep: @Sendable (Double) -> Void

    /// Creates a client for one server.
    /// - Parameters:
    ///   - server: the server's base URL.
    ///   - token: the write token.
    ///   - policy: when to try again; five retries from half a second, doubling, by default.
    ///   - timeout: seconds a request may wait for the server.
    ///   - sleep: waits the given number of seconds between tries; `Thread.sleep` by default.
    public init(
        server: URL, token: String, policy: ResendPolicy = ResendPolicy(), timeout: Double = 120,
        sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.server = server
        self.token = token
        self.policy = policy
        self.timeout = timeout
        self.sleep = sleep
    }

    /// Sends the batch in `file`, live when its name says so (``SpoolDirectory/isLive(_:)``).
    /// - Parameter file: a spooled batch file.
    /// - Returns: what became of the batch; ``Delivery/refused(status:message:)`` with status 0 when
    ///   the file cannot be read.
    public func send(file: URL) -> Delivery {
        guard let body = try? Data(contentsOf: file) else {
            return .refused(status: 0, message: "could not read \(file.path)")
        }
        return send(body, live: SpoolDirectory.isLive(file))
    }

    /// Sends one batch, blocking the calling thread through the retries.
    /// - Parameters:
    ///   - body: the NDJSON bytes of the batch.
    ///   - live: whether to send with `?live=1`, for a batch cut inside a test.
    /// - Returns: ``Delivery/stored(_:)`` for a 2xx answer that is a receipt;
    ///   ``Delivery/refused(status:message:)`` for a 2xx answer that is not, or a status not worth
    ///   another try; ``Delivery/unreachable(_:)`` when the last try still failed.
    public func send(_ body: Data, live: Bool) -> Delivery {
        var endpoint = server.appending(path: "api/v1/events")
        if live { endpoint.append(queryItems: [URLQueryItem(name: "live", value: "1")]) }
        var request = URLRequest(url: endpoint, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        var last = ""
        for delay in [0] + policy.delays {
            if delay > 0 { sleep(delay) }
            let (status, text) = Self.exchange(request)
            if (200..<300).contains(status) {
                guard let receipt = try? JSONDecoder().decode(IngestReceipt.self, from: Data(text.utf8)) else {
                    return .refused(
                        status: status, message: "the server's answer is not a receipt: \(text.prefix(200))")
                }
                return .stored(receipt)
            }
            if status == 0 {
                last = text
                continue
            }
            let message = "HTTP \(status): \(Self.message(text))"
            guard ResendPolicy.isRetryable(status: status) else { return .refused(status: status, message: message) }
            last = message
        }
        return .unreachable(last)
    }

    /// Sends the checkout's ownership (`PUT /api/v1/ownership`) for the write token's project, once.
    /// - Returns: why the server did not keep it; `nil` when it did.
    public func send(_ ownership: Ownership) -> String? {
        var request = URLRequest(url: server.appending(path: "api/v1/ownership"), timeoutInterval: timeout)
        request.httpMethod = "PUT"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONEncoder().encode(ownership)
        let (status, text) = Self.exchange(request)
        if (200..<300).contains(status) { return nil }
        return status == 0 ? text : "HTTP \(status): \(Self.message(text))"
    }

    /// One request, waiting at most its timeout; status 0 and the error's words when no answer came.
    private static func exchange(_ request: URLRequest) -> (status: Int, text: String) {
        switch HTTPExchange.send(request) {
        case .success(let answer): return (answer.status, String(decoding: answer.body, as: UTF8.self))
        case .failure(let error): return (0, error.message)
        }
    }

    /// The message of the server's `{"error":{"message":…}}`, or the body as it is.
    private static func message(_ body: String) -> String {
        struct Answer: Decodable {
            struct Detail: Decodable { var message: String }
            var error: Detail
        }
        let message = (try? JSONDecoder().decode(Answer.self, from: Data(body.utf8)).error.message) ?? body
        return String(message.prefix(300))
    }
}
