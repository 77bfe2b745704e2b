import Foundation
import LedgerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads a project's quarantine from `testledger serve` (`GET /api/v1/projects/{p}/quarantine`),
/// with any token of the project.
public struct QuarantineClient: Sendable {
    /// The server's base URL.
    public let server: URL
    /// A token of the project: a CI job's write token will do.
    public let token: String
    /// Seconds the request may wait for the server.
    public let timeout: Double

    /// Creates a client for one server.
    public init(server: URL, token: String, timeout: Double = 10) {
        self.server = server
        self.token = token
        self.timeout = timeout
    }

    /// The quarantine in force for `project`, or why it could not be had.
    public func fetch(project: String) -> Result<[QuarantinedTest], QuarantineClientError> {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let name = project.addingPercentEncoding(withAllowedCharacters: allowed) ?? project
        guard let url = URL(string: server.absoluteString.trimmingSuffix("/") + "/api/v1/projects/\(name)/quarantine")
        else { return .failure(QuarantineClientError(message: "\(server) is not a server address")) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<[QuarantinedTest], QuarantineClientError> = .failure(
            QuarantineClientError(message: "no answer"))
        URLSession.shared.dataTask(with: request) { data, response, error in
            defer { done.signal() }
            if let error {
                outcome = .failure(QuarantineClientError(message: error.localizedDescription))
                return
            }
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let body = data ?? Data()
            guard status == 200 else {
                outcome = .failure(
                    QuarantineClientError(
                        message: "HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))"))
                return
            }
            do {
                outcome = .success(try JSONDecoder().decode([QuarantinedTest].self, from: body))
            } catch {
                outcome = .failure(QuarantineClientError(message: "the answer is not a quarantine list: \(error)"))
            }
        }.resume()
        done.wait()
        return outcome
    }
}

/// Why the server's quarantine could not be read.
public struct QuarantineClientError: Error, Sendable, Equatable {
    /// What went wrong.
    public var message: String
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
