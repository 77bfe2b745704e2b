import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request and its answer, blocking the calling thread: what the command line's
/// clients (the server's read API, a code host's comments, an OpenTelemetry collector) are built on.
public enum HTTPExchange {
    /// A server's answer.
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data
        /// The answer's headers, by lowercased name.
        public var headers: [String: String]
    }

    /// Sends `request` and waits for the answer: with a `budget`, at most the request's
    /// `timeoutInterval` or what is left of the budget, in all (a server that takes the connection
    /// and trickles or never answers included); without one, until the request has been idle for
    /// its `timeoutInterval` (a large upload on a slow link may take longer in all).
    /// - Returns: the answer, whatever its status; or, when none came, why.
    public static func send(_ request: URLRequest, budget: NetworkBudget? = nil) -> Result<Answer, ServerReadError> {
        guard let budget else { return send(request, waiting: nil) }
        return budget.spend(upTo: request.timeoutInterval) { send(request, waiting: $0) }
            ?? .failure(ServerReadError(message: budget.spentMessage))
    }

    private static func send(_ request: URLRequest, waiting bound: Double?) -> Result<Answer, ServerReadError> {
        var request = request
        // URLSession on Linux counts its timeout in whole seconds (less than one times out at
        // once); the wait below keeps the exact bound.
        if let bound { request.timeoutInterval = max(1, bound.rounded(.up)) }
        let outcome = Outcome()
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                outcome.settle(.failure(ServerReadError(message: error.localizedDescription)))
                return
            }
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            outcome.settle(.success(Answer(status: http?.statusCode ?? 0, body: data ?? Data(), headers: headers)))
        }
        task.resume()
        guard let bound else {
            outcome.done.wait()
            return outcome.result ?? .failure(ServerReadError(message: "no answer"))
        }
        guard outcome.done.wait(timeout: .now() + bound) == .success else {
            task.cancel()
            let waited = bound == bound.rounded() ? String(Int(bound)) : String(format: "%.1f", bound)
            return .failure(ServerReadError(message: "no answer within \(waited) s"))
        }
        return outcome.result ?? .failure(ServerReadError(message: "no answer"))
    }

    /// The answer, set once by URLSession's thread, read once the wait is over.
    private final class Outcome: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var value: Result<Answer, ServerReadError>?

        func settle(_ result: Result<Answer, ServerReadError>) {
            lock.withLock { value = result }
            done.signal()
        }

        var result: Result<Answer, ServerReadError>? { lock.withLock { value } }
    }
}
