import Foundation
import Logging
import MCP

/// `mcp`'s standard input and output, ending the input only once every request read from it has
/// been answered: a client that writes its requests and closes its end still gets each answer.
/// (The server answers each request on a task of its own and stops when its input ends.)
package actor AnsweringTransport: Transport {
    private let stdio = StdioTransport()
    private var unanswered: Set<ID> = []
    private var waiting: CheckedContinuation<Void, Never>?

    package nonisolated var logger: Logger { stdio.logger }

    package init() {}

    package func connect() async throws { try await stdio.connect() }

    package func disconnect() async { await stdio.disconnect() }

    package func send(_ data: Data) async throws {
        // A response that could not be written is answered as far as this end can: a client gone
        // must not keep the server waiting.
        defer {
            unanswered.subtract(Self.messages(in: data).filter { $0.method == nil }.compactMap(\.id))
            if unanswered.isEmpty, let waiting {
                self.waiting = nil
                waiting.resume()
            }
        }
        try await stdio.send(data)
    }

    package func receive() -> AsyncThrowingStream<Data, Swift.Error> {
        AsyncThrowingStream { continuation in
            let reading = Task {
                do {
                    for try await data in await stdio.receive() {
                        read(data)
                        continuation.yield(data)
                    }
                    await answered()
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }

    private func read(_ data: Data) {
        unanswered.formUnion(Self.messages(in: data).filter { $0.method != nil }.compactMap(\.id))
    }

    private func answered() async {
        guard !unanswered.isEmpty else { return }
        await withCheckedContinuation { waiting = $0 }
    }

    /// A JSON-RPC message's id and method: a request has both, a notification no id, a response no method.
    private struct Envelope: Decodable {
        let id: ID?
        let method: String?
    }

    private static func messages(in data: Data) -> [Envelope] {
        let decoder = JSONDecoder()
        return (try? decoder.decode([Envelope].self, from: data))
            ?? (try? decoder.decode(Envelope.self, from: data)).map { [$0] } ?? []
    }
}
