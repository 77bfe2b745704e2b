import Foundation
import LedgerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Speaks to `testledger serve`'s project API (`/api/v1/projects/{p}/…`) with a token: reads what
/// CI runs by (the quarantine, shard timings, the tests a base branch ran) with any token of the
/// project, its reports with a read or manage token, and changes its quarantine with a manage token.
public struct ServerClient: Sendable {
    /// The server's base URL.
    public let server: URL
    /// A token of the project: a CI job's write token will do for reading what it runs by.
    public let token: String
    /// Seconds a request may wait for the server.
    public let timeout: Double
    /// The command's time on the network, shared with its other calls; `nil` for no bound but `timeout`.
    public let budget: NetworkBudget?

    /// Creates a client of one server.
    public init(server: URL, token: String, timeout: Double = 10, budget: NetworkBudget? = nil) {
        self.server = server
        self.token = token
        self.timeout = timeout
        self.budget = budget
    }

    /// The quarantine in force for `project`, or why it could not be had.
    public func quarantine(project: String) -> Result<[QuarantinedTest], ServerReadError> {
        get([QuarantinedTest].self, project: project, path: "quarantine")
    }

    /// `GET /api/v1/projects/{project}/{path}?{query}`, decoded as `Value`, or why it could not be had.
    public func get<Value: Decodable>(
        _ type: Value.Type, project: String, path: String, query: [String: String] = [:]
    ) -> Result<Value, ServerReadError> {
        send("GET", project: project, path: path, query: query).flatMap { decode(type, $0, path: path) }
    }

    /// `GET /api/v1/projects`: the projects this token sees, or why they could not be had.
    public func projects() -> Result<[ProjectName], ServerReadError> {
        send("GET", path: "", query: [:]).flatMap { decode([ProjectName].self, $0, path: "/api/v1/projects") }
    }

    /// Sends `method` to `/api/v1/projects/{project}/{path}?{query}` with a JSON `body`.
    /// - Returns: the body of a 2xx answer, or why there was none: another status (with the
    ///   server's message) or no answer at all.
    public func send(
        _ method: String, project: String, path: String, query: [String: String] = [:], body: Data? = nil
    ) -> Result<Data, ServerReadError> {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let name = project.addingPercentEncoding(withAllowedCharacters: allowed) ?? project
        return send(method, path: "/\(name)/\(path)", query: query, body: body)
    }

    private func send(_ method: String, path: String, query: [String: String], body: Data? = nil)
        -> Result<Data, ServerReadError>
    {
        var address = URLComponents(string: server.absoluteString.trimmingSuffix("/") + "/api/v1/projects" + path)
        if !query.isEmpty {
            address?.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        guard let url = address?.url else {
            return .failure(ServerReadError(message: "\(server) is not a server address"))
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return HTTPExchange.send(request, budget: budget).flatMap { answer in
            guard (200..<300).contains(answer.status) else {
                return .failure(
                    ServerReadError(
                        message: "HTTP \(answer.status): \(Self.reason(answer.body))", status: answer.status))
            }
            return .success(answer.body)
        }
    }

    /// The server's message from an error's body (`{"error": {"message": …}}`), else the body's start.
    private static func reason(_ body: Data) -> String {
        struct Refusal: Decodable {
            struct Reason: Decodable { var message: String }
            var error: Reason
        }
        return (try? JSONDecoder().decode(Refusal.self, from: body))?.error.message
            ?? String(decoding: body.prefix(200), as: UTF8.self)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ body: Data, path: String)
        -> Result<Value, ServerReadError>
    {
        do {
            return .success(try JSONDecoder().decode(Value.self, from: body))
        } catch {
            return .failure(ServerReadError(message: "the answer of \(path) is not what was asked: \(error)"))
        }
    }

    /// A project as `GET /api/v1/projects` lists it.
    public struct ProjectName: Decodable, Sendable {
        /// The project's name.
        public var project: String
        /// When its newest run started (ISO 8601).
        public var latestRun: String
    }
}

/// Why the server could not be read or changed.
public struct ServerReadError: Error, Sendable, Equatable {
    /// What went wrong.
    public var message: String
    /// The HTTP status the server answered with; `nil` when no answer came.
    public var status: Int?

    /// Creates an error.
    public init(message: String, status: Int? = nil) {
        self.message = message
        self.status = status
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
