import ArgumentParser
import Foundation
import LedgerCore
import TestLedgerArguments

/// The `testledger` command: records test runs and reports on them.
@main
struct TestLedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testledger",
        abstract: "Records test runs into a ledger and tells which tests to trust.",
        version: TestLedgerVersion.current,
        subcommands: [
            Ingest.self, Record.self, Format.self, Runs.self, Report.self, Show.self, Status.self, Verify.self,
            Quarantine.self,
            Serve.self,
            Token.self, Upload.self, Prune.self, Shard.self, Select.self, GitHub.self, GitLab.self, Export.self,
            MCPServer.self, Notify.self,
        ])

    /// Runs the command. A synchronous one runs on the main thread, where it may block on the store
    /// (PostgreSQL's answers come through Swift's shared threads, which must stay free for them);
    /// ArgumentParser's own `main` would run it on one of those shared threads. The ledgers it
    /// opened are closed when it ends, however it ends.
    @MainActor static func main() async {
        // Without its arguments (no /proc, and a C library that does not hand them over) the
        // command would print its help and exit 0: a CI job would pass having run nothing.
        if CommandLine.arguments.isEmpty {
            let seen = testledger_arguments_seen()
            FileHandle.standardError.write(
                Data(
                    ("testledger: could not read its arguments (\(seen < 0 ? "no /proc and none handed over" : "none"))"
                        + ": mount /proc in the container or chroot (mount -t proc proc /proc)\n").utf8))
            Foundation.exit(70)
        }
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            OpenedLedgers.closeAll()
        } catch {
            OpenedLedgers.closeAll()
            exit(withError: error)
        }
    }
}
