import ArgumentParser
import Foundation
import LedgerCore
import LedgerImport
import LedgerRecording
import LedgerStore

extension TestLedgerCommand {
    /// `RUNNER | testledger format`: echoes a spec runner's output and stores it as it streams.
    struct Format: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "format",
            abstract: "Read a spec runner's output from standard input, echo it, and store it as it streams.",
            discussion: """
                For runners that cannot load TestLedger's module: `bacon -p spec/*.rb | testledger format`, \
                `rake spec output=tap | testledger format`. Reads Bacon's spec_dox, test_unit and knock \
                outputs, RubyMotion's, and any TAP 12/13/14 producer; a test's duration is the time between \
                its line and the one before (or TAP's duration_ms). The run is stored as the lines arrive: \
                a runner that stops early leaves an interrupted run. Exits non-zero when anything failed.
                """)

        @Option(help: "The output's format: auto (detect), tap or bacon.")
        var from: ConsoleFormat.Choice = .auto

        @OptionGroup var store: StoreOptions
        @OptionGroup var runInfo: RunOptions

        func run() throws {
            let database = try store.open()
            let metadata = runInfo.metadata(config: try ProjectConfiguration.load())
            let runID = LedgerEnvironment().run ?? UUID().uuidString.lowercased()
            // Ctrl-C reaches the runner too; keep reading until its output ends, so what ran is stored.
            signal(SIGINT, SIG_IGN)
            var stream = ConsoleStream(
                database: database, run: runID, metadata: metadata, choice: from,
                echo: ConsoleEcho(colored: isatty(STDOUT_FILENO) == 1))
            let input = ArrivingLines()
            while let (line, at) = input.next() {
                try stream.consume(line, at: at)
            }
            let failed = try stream.finish(at: Date().timeIntervalSince1970)
            if failed { throw ExitCode(1) }
        }
    }
}
extension ConsoleFormat.Choice: ExpressibleByArgument {}
