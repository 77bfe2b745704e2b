import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerImport
import LedgerRecording

extension TestLedgerCommand {
    /// `testledger upload FILE…`: sends results to `testledger serve`.
    struct Upload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "upload", abstract: "Send test results to a TestLedger server.",
            discussion: """
                Reads the same formats as `ingest`, with the CI's metadata, checks them here (a \
                malformed file sends nothing) and sends them as Ledger event batches. Batches wait \
                in the spool until the server has stored them: while it fails or cannot be reached \
                they are retried with backoff, then kept for `testledger upload --spool`. Sending \
                the same results twice stores them once.
                """)

        @Argument(help: "Files to send; - reads standard input.")
        var files: [String] = []

        @Flag(help: "Also send the batches waiting in the spool.")
        var spool = false

        @Option(help: "The server (default: $TESTLEDGER_URL).")
        var url: String?
        @Option(help: "A write token (default: $TESTLEDGER_TOKEN).")
        var token: String?
        @Option(help: "The input format, when detection is not wanted.")
        var format: InputFormat?
        @Option(name: .customLong("spool-dir"), help: "The spool (default: $TESTLEDGER_SPOOL or .testledger/spool).")
        var spoolDirectory: String?
        @Option(
            help: "How many times a failing send is retried, with doubling delays (default: $TESTLEDGER_RETRIES or 5).")
        var retries: Int?
        @Option(
            name: .customLong("retry-delay"),
            help: "Seconds before the first retry (default: $TESTLEDGER_RETRY_DELAY or 0.5).")
        var retryDelay: Double?
        @Option(name: .customLong("batch-bytes"), help: .hidden)
        var batchBytes = 8 << 20

        @OptionGroup var runInfo: RunOptions

        func validate() throws {
            if files.isEmpty && !spool { throw ValidationError("name files to send, or --spool to send the spool") }
            _ = try server()
            _ = try writeToken()
        }

        func run() throws {
            let spool =
                spoolDirectory.map { SpoolDirectory(url: URL(fileURLWithPath: $0)) }
                ?? SpoolDirectory(environment: LedgerEnvironment())
            let config = try ProjectConfiguration.load()
            let (server, token) = (try server(), try writeToken())
            let (metadata, problem) = CarriedFixes.labelling(
                runInfo.metadata(config: config), config: config,
                client: ServerClient(server: server, token: token, timeout: 5),
                checkout: files.isEmpty ? nil : GitInfo.topLevel(in: FileManager.default.currentDirectoryPath))
            if let problem { printError("warning: \(problem)") }
            var batches: [(name: String, file: URL)] = []
            let reading = FilesProgress(
                "read", totalBytes: files.reduce(0) { $0 + ($1 == "-" ? 0 : FilesProgress.size(of: $1)) })
            for path in files {
                reading.begin(size: path == "-" ? 0 : FilesProgress.size(of: path))
                defer { reading.end() }
                batches += try UploadBatches.spool(
                    path, format: format, metadata: metadata, into: spool, batchBytes: batchBytes
                )
                .map { (path, $0) }
            }
            reading.finish()
            if self.spool {
                spool.sweep()
                let named = Set(batches.map(\.file))
                batches += try spool.pending().filter { !named.contains($0) }.map { ($0.lastPathComponent, $0) }
            }
            let client = UploadClient(
                server: server, token: token,
                policy: LedgerEnvironment().resendPolicy(retries: retries, firstDelay: retryDelay))
            let (unsent, refused) = UploadBatches.deliver(batches, with: client, spool: spool)
            let ownership = CheckoutOwnership.read(config)
            if !ownership.isEmpty, let problem = client.send(ownership) {
                printError(
                    "warning: the owners from \(ownership.codeownersPath ?? ".testledger.yml") were not sent (\(problem))"
                )
            }
            if unsent > 0 {
                printError(
                    "warning: \(unsent) batch(es) wait in \(spool.url.path): "
                        + "send them with `testledger upload --spool` once the server is back")
            }
            if refused > 0 { throw ExitCode.failure }
        }

        private func server() throws -> URL {
            guard let text = url ?? LedgerEnvironment()["TESTLEDGER_URL"] else {
                throw ValidationError("name the server with --url or TESTLEDGER_URL")
            }
            guard let server = URL(string: text), server.scheme == "http" || server.scheme == "https" else {
                throw ValidationError("--url \(text) is not an http:// or https:// address")
            }
            return server
        }

        private func writeToken() throws -> String {
            guard let token = token ?? LedgerEnvironment().token else {
                throw ValidationError("give a write token with --token or TESTLEDGER_TOKEN (`testledger token create`)")
            }
            return token
        }

    }
}
