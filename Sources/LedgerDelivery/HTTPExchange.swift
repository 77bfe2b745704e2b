import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request and its answer, blocking the calling thread: what the command line's
/// clients (the server's read API, a code host's comments) are built on.
public enum HTTPExchange {
    /// A server's answer.
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data
        /// The answer's headers, by lowercased name.
        public var headers: [String: String]
    }

    /// Sends `request` and waits for the answer.
    /// - Returns: the answer, whatever its status; or, when none came, why.
    public static func send(_ request: URLRequest) -> Result<Answer, ServerReadError> {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: Answer?
        nonisolated(unsafe) var failure: String?
        URLSession.shared.dataTask(with: request) { data, response, error in
            defer { done.signal() }
            if let error { failure = error.localizedDescription }
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            answer = Answer(status: http?.statusCode ?? 0, body: data ?? Data(), headers: headers)
        }.resume()
        done.wait()
        if let failure { return .failure(ServerReadError(message: failure)) }
        return answer.map { .success($0) } ?? .failure(ServerReadError(message: "no answer"))
    }
}
