import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerMCP
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

                Prompts: fix_flaky_test (status, culprit, reproduce, the evidence, verify_fix) and \
                unblock_run (which failures of a run are flaky, broken or new).

                Answers are JSON, both as text and as structured content that each tool's output schema \
                describes, at most 4 KB unless a call asks for more (max_bytes), their lists cut to their \
                top entries with a count of the rest. A test may be named by its dashboard address. Each \
                tool carries MCP's hints: reading tools are read-only. Standard output carries the \
                protocol; messages go to standard error.

                With --allow-run, reproduce and verify_fix run `testledger verify` with --run-command, else \
                .testledger.yml's verifyCommand.

                With --url, the answers come from a team's server through its API: a read token reads, and \
                the quarantine tool needs a manage token.
                """)

        @Flag(help: "Offer the quarantine tool, which mutes or releases tests.")
        var allowQuarantine = false
        @Flag(help: "Offer reproduce and verify_fix, which run the project's tests.")
        var allowRun = false
        @Option(help: "The test command they run (default: .testledger.yml's verifyCommand), e.g. 'swift test'.")
        var runCommand: String?
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
            let config = try ProjectConfiguration.load()
            let tools = LedgerTools(
                ledger: try ledger(config), allowQuarantine: allowQuarantine, verifier: try verifier(config))
            let server = Server(
                name: "testledger", version: TestLedgerVersion.current,
                capabilities: .init(prompts: .init(listChanged: false), tools: .init(listChanged: false)))
            let listed = tools.tools
            await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: listed) }
            await server.withMethodHandler(CallTool.self) { call in
                let (text, structured) = try await Self.answer(tools, call.name, call.arguments ?? [:])
                return CallTool.Result(
                    content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: Optional(structured),
                    isError: false)
            }
            let prompts = LedgerPrompts(tools: tools)
            await server.withMethodHandler(ListPrompts.self) { _ in ListPrompts.Result(prompts: LedgerPrompts.list) }
            await server.withMethodHandler(GetPrompt.self) { request in
                try await Blocking.run { try prompts.get(request.name, request.arguments ?? [:]) }
            }
            try await server.start(transport: AnsweringTransport())
            await server.waitUntilCompleted()
            await server.stop()
        }

        /// What runs `reproduce` and `verify_fix`: only with --allow-run, and a command to run.
        private func verifier(_ config: ProjectConfiguration) throws -> TestVerifier? {
            guard allowRun else { return nil }
            guard let text = runCommand ?? config.verifyCommand else {
                throw ValidationError(
                    "--allow-run needs the test command: --run-command 'swift test', or verifyCommand in .testledger.yml"
                )
            }
            guard let command = CommandWords.split(text), !command.isEmpty else {
                throw ValidationError("the test command \(text) has an unclosed quote")
            }
            return TestVerifier(
                executable: Bundle.main.executablePath ?? CommandLine.arguments[0],
                storeArguments: store.db.map { ["--db", $0] } ?? [], command: command)
        }

        private func ledger(_ config: ProjectConfiguration) throws -> any AgentLedger {
            guard let url else {
                // Only the quarantine tool writes: without it, the ledger is opened read-only.
                return LocalLedger(
                    database: try allowQuarantine ? store.open() : store.openForReading(), config: config)
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
        static func answer(_ tools: LedgerTools, _ name: String, _ arguments: [String: Value]) async throws -> (
            text: String, structured: Value
        ) {
            try await Blocking.run { try tools.call(name, arguments) }
        }
    }
}
