import AsyncHTTPClient
import Foundation
import LedgerCore
import NIOCore
import NIOHTTP1

/// Sends spooled batches to `POST /api/v1/events`, retrying with backoff while the server is
/// down or failing; a batch leaves the spool only once the server has stored it.
struct Uploader {
    enum Delivery {
        case stored(IngestReceipt)
        /// The server answered, and will answer the same again: 4xx.
        case refused(status: Int, message: String)
        /// Still failing after every retry.
        case unreachable(String)
    }

    let server: URL
    let token: String
    let policy: RetryPolicy
    let client: HTTPClient

    /// A client that gives up on a connection after a few seconds: the retries are ours, with
    /// backoff, rather than the connection pool's until the request's deadline.
    static func client(connectTimeout: Int64 = 5) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(connectTimeout), read: .seconds(120))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func send(_ batch: URL) async -> Delivery {
        let body: ByteBuffer
        do {
            body = ByteBuffer(bytes: try Data(contentsOf: batch))
        } catch {
            return .refused(status: 0, message: "could not read \(batch.path): \(error.localizedDescription)")
        }
        var last = ""
        for delay in [0] + policy.delays {
            if delay > 0 { try? await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
            switch await attempt(body, live: SpoolDirectory.isLive(batch)) {
            case .success(let receipt): return .stored(receipt)
            case .failure(.final(let status, let message)): return .refused(status: status, message: message)
            case .failure(.transient(let message)): last = message
            }
        }
        return .unreachable(last)
    }

    private enum Failure: Error {
        case final(Int, String)
        case transient(String)
    }

    private func attempt(_ body: ByteBuffer, live: Bool) async -> Result<IngestReceipt, Failure> {
        var endpoint = server.appending(path: "api/v1/events")
        if live { endpoint.append(queryItems: [URLQueryItem(name: "live", value: "1")]) }
        var request = HTTPClientRequest(url: endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/x-ndjson")
        request.body = .bytes(body)
        do {
            let response = try await client.execute(request, timeout: .seconds(120))
            let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
            let status = Int(response.status.code)
            if (200..<300).contains(status) {
                guard let receipt = try? JSONDecoder().decode(IngestReceipt.self, from: Data(text.utf8)) else {
                    return .failure(.final(status, "the server's answer is not a receipt: \(text.prefix(200))"))
                }
                return .success(receipt)
            }
            let message = "HTTP \(status): \(Self.message(text))"
            return .failure(RetryPolicy.isRetryable(status: status) ? .transient(message) : .final(status, message))
        } catch {
            return .failure(.transient("\(error)"))
        }
    }

    /// The message of Hummingbird's `{"error":{"message":…}}`, or the body as it is.
    private static func message(_ body: String) -> String {
        struct Answer: Decodable {
            struct Detail: Decodable { var message: String }
            var error: Detail
        }
        return (try? JSONDecoder().decode(Answer.self, from: Data(body.utf8)).error.message) ?? body
    }
}
