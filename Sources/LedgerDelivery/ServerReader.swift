import Foundation
import LedgerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads a project's JSON from `testledger serve`'s read API (`GET /api/v1/projects/{p}/…`),
/// with any token of the project: its quarantine, its shard timings, the tests a base branch ran.
public struct ServerReader: Sendable {
    /// The server's base URL.
    public let server: URL
    /// A token of the project: a CI job's write token will do.
    public let token: String
    /// Seconds a request may wait for the server.
    public let timeout: Double

    /// Creates a reader for one server.
    public init(server: URL, token: String, timeout: Double = 10) {
        self.server = server
        self.token = token
        self.timeout = timeout
    }

    /// The quarantine in force for `project`, or why it could not be had.
    public func quarantine(project: String) -> Result<[QuarantinedTest], ServerReadError> {
        get([QuarantinedTest].self, project: project, path: "quarantine")
    }

    /// `GET /api/v1/projects/{project}/{path}?{query}`, decoded as `Value`, or why it could not be had.
    public func get<Value: Decodable>(
        _ type: Value.Type, project: String, path: String, query: [String: String] = [:]
    ) -> Result<Value, ServerReadError> {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let name = project.addingPercentEncoding(withAllowedCharacters: allowed) ?? project
        var address = URLComponents(
            string: server.absoluteString.trimmingSuffix("/") + "/api/v1/projects/\(name)/\(path)")
        if !query.isEmpty {
            address?.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        guard let url = address?.url else {
            return .failure(ServerReadError(message: "\(server) is not a server address"))
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let answer: HTTPExchange.Answer
        switch HTTPExchange.send(request) {
        case .success(let received): answer = received
        case .failure(let failure): return .failure(failure)
        }
        guard answer.status == 200 else {
            let body = String(decoding: answer.body.prefix(200), as: UTF8.self)
            return .failure(ServerReadError(message: "HTTP \(answer.status): \(body)"))
        }
        do {
            return .success(try JSONDecoder().decode(Value.self, from: answer.body))
        } catch {
            return .failure(ServerReadError(message: "the answer of \(url.path) is not what was asked: \(error)"))
        }
    }
}

/// Why the server could not be read.
public struct ServerReadError: Error, Sendable, Equatable {
    /// What went wrong.
    public var message: String
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
