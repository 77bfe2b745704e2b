import ArgumentParser
import Foundation
import LedgerCore
import LedgerStore
import MCP

extension TestLedgerCommand {
    /// `testledger mcp`: the ledger for coding agents, over the Model Context Protocol on stdio.
    struct MCPServer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Answer coding agents over the Model Context Protocol (stdio): flaky tests, runs, culprits.",
            discussion: """
                Tools: flaky_tests, run_summary, test_detail, culprit, failure_groups, slow_tests; and quarantine \
                with --allow-quarantine. Answers are JSON, bounded to their top entries with a count of the rest. \
                Standard output carries the protocol; messages go to standard error.
                """)

        @Flag(help: "Offer the quarantine tool, which mutes or releases tests.")
        var allowQuarantine = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let tools = LedgerTools(
                database: try store.open(), config: try ProjectConfiguration.load(), allowQuarantine: allowQuarantine)
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

        /// Answers on a thread of its own: a store call blocks, and Swift's shared threads must not.
        static func answer(_ tools: LedgerTools, _ name: String, _ arguments: [String: Value]) async throws -> String {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try tools.call(name, arguments) })
                }
            }
        }
    }
}
