import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerRecording
import LedgerServer
import LedgerStore
import MCP

extension TestLedgerCommand {
    /// `testledger mcp`: the ledger for coding agents, over the Model Context Protocol on stdio.
    struct MCPServer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Answer coding agents over the Model Context Protocol (stdio): flaky tests, runs, culprits.",
            discussion: """
                Tools:
                \(LedgerTools.help)

                Answers are JSON, bounded to their top entries with a count of the rest. \
                Standard output carries the protocol; messages go to standard error.

                With --url, the answers come from a team's server through its API: a read token reads, and \
                the quarantine tool needs a manage token.
                """)

        @Flag(help: "Offer the quarantine tool, which mutes or releases tests.")
        var allowQuarantine = false
        @OptionGroup var store: StoreOptions
        @Option(help: "Answer from this server's API instead of a ledger (https://ledger.example).")
        var url: String?
        @Option(help: "The server's token: read, or manage for the quarantine tool (default: $TESTLEDGER_TOKEN).")
        var token: String?
        @Option(help: "The server's project (default: the one with the newest run the token sees).")
        var project: String?

        func validate() throws {
            if url == nil {
                if token != nil || project != nil { throw ValidationError("--token and --project go with --url") }
            } else if store.db != nil {
                throw ValidationError("answer from a ledger (--db) or a server (--url), not both")
            }
        }

        func run() async throws {
            let tools = LedgerTools(ledger: try ledger(), allowQuarantine: allowQuarantine)
            let server = Server(
                name: "testledger", version: TestLedgerVersion.current,
                capabilities: .init(tools: .init(listChanged: false)))
            let listed = tools.tools
            await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: listed) }
            await server.withMethodHandler(CallTool.self) { call in
                let text = try await Self.answer(tools, call.name, call.arguments ?? [:])
                return CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)], isError: false)
            }
            try await server.start(transport: StdioTransport())
            await server.waitUntilCompleted()
            await server.stop()
        }

        private func ledger() throws -> any AgentLedger {
            guard let url else {
                return LocalLedger(database: try store.open(), config: try ProjectConfiguration.load())
            }
            guard let server = URL(string: url), server.scheme == "http" || server.scheme == "https", server.host != nil
            else { throw ValidationError("--url \(url) is not a server address (https://ledger.example)") }
            guard let token = token ?? LedgerEnvironment().token, !token.isEmpty else {
                throw ValidationError("give the server's token with --token or TESTLEDGER_TOKEN (a read token)")
            }
            do {
                return try ServerLedger(client: ServerClient(server: server, token: token), project: project)
            } catch let error as ServerReadError {
                throw ValidationError("--url \(url): could not find the token's project: \(error.message)")
            }
        }

        /// Answers off Swift's shared threads: a store call blocks, and they must not.
        static func answer(_ tools: LedgerTools, _ name: String, _ arguments: [String: Value]) async throws -> String {
            try await Blocking.run { try tools.call(name, arguments) }
        }
    }
}
