import Foundation
import LedgerTestSupport
import Testing

/// A client that writes its requests and closes its end at once (a script, `printf … | testledger
/// mcp`) gets every answer before the server exits.
@Suite struct MCPEndOfInputTests {
    static func request(_ id: Int, _ method: String, _ params: [String: Any]) throws -> String {
        let message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method, "params": params]
        return String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
    }

    /// The JSON of `testledger mcp`'s answer to one call of `tool`, asked by a client that closes
    /// its input at once.
    static func call(
        _ tool: String, _ arguments: [String: Any], on cli: CLI, environment: [String: String] = [:]
    ) async throws -> Any {
        let requests = [
            try request(
                1, "initialize",
                [
                    "protocolVersion": "2025-06-18", "capabilities": [String: Any](),
                    "clientInfo": ["name": "script", "version": "1"],
                ]),
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            try request(2, "tools/call", ["name": tool, "arguments": arguments]),
        ]
        let output = try await cli.run(
            ["mcp"], stdin: requests.joined(separator: "\n") + "\n", environment: environment)
        let answer = try output.stdout.split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["id"] as? Int == 2 }
        let content = (answer?["result"] as? [String: Any])?["content"] as? [[String: Any]]
        let text = try #require(content?.first?["text"] as? String, "\(output.stdout) \(output.stderr)")
        return try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func requestsReadBeforeTheInputEndsAreAnswered() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let initialize = try Self.request(
            1, "initialize",
            [
                "protocolVersion": "2025-06-18", "capabilities": [String: Any](),
                "clientInfo": ["name": "script", "version": "1"],
            ])
        let initialized = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        let requests = [
            initialize, initialized, try Self.request(2, "tools/list", [:]),
            try Self.request(3, "tools/call", ["name": "flaky_tests", "arguments": [String: Any]()]),
            try Self.request(4, "no/such/method", [:]),
        ]
        let output = try await cli.run(["mcp"], stdin: requests.joined(separator: "\n") + "\n")
        #expect(output.status == 0, "\(output.stderr)")
        let answers = try output.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(Set(answers.compactMap { $0["id"] as? Int }) == [1, 2, 3, 4], "\(output.stdout)")
        let byID = Dictionary(answers.map { ($0["id"] as? Int ?? 0, $0) }) { first, _ in first }
        #expect((byID[1]?["result"] as? [String: Any])?["serverInfo"] != nil)
        let tools = (byID[2]?["result"] as? [String: Any])?["tools"] as? [[String: Any]] ?? []
        #expect(tools.contains { $0["name"] as? String == "flaky_tests" })
        #expect((byID[3]?["result"] as? [String: Any])?["isError"] as? Bool == false, "\(byID[3] ?? [:])")
        #expect((byID[4]?["error"] as? [String: Any])?["code"] as? Int == -32601, "method not found")
    }
}
