import ArgumentParser
import Foundation
import LedgerImport

extension TestLedgerCommand {
    /// `testledger ingest FILE...`: stores what test runners wrote.
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store test results from files (or - for standard input).",
            discussion: """
                Reads the Ledger event stream, JUnit XML (swift test, pytest, Surefire, xcbeautify, \
                trainer) and Swift Testing's JSON event stream; the format is detected. Each file is \
                stored in one transaction: a file that fails to parse stores nothing. Ingesting the \
                same file twice stores it once.
                """)

        @Argument(help: "Files to ingest; - reads standard input.")
        var files: [String]

        @Option(
            help:
                "The input format, when detection is not wanted: \(InputFormat.allCases.map(\.rawValue).joined(separator: ", "))."
        )
        var format: InputFormat?

        @OptionGroup var store: StoreOptions
        @OptionGroup var runInfo: RunOptions

        func run() throws {
            let database = try store.open()
            let config = try ProjectConfiguration.load()
            let metadata = runInfo.metadata(config: config)
            var runs: [String] = []
            for path in files {
                let file = try InputFile.open(path)
                defer { file.close() }
                let outcome = try Ingestion.ingest(file, format: format, metadata: metadata, into: database)
                let summary = outcome.summary
                for warning in summary.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
                var line = "\(path): \(outcome.format.rawValue), \(summary.results) result(s) stored"
                if summary.alreadyStored > 0 { line += ", \(summary.alreadyStored) already stored" }
                if summary.crashed > 0 { line += ", \(summary.crashed) crashed" }
                line += " (run \(summary.runs.joined(separator: ", ")))"
                print(line)
                runs += summary.runs
            }
            try QuarantineEnforcement.afterIngest(runs: runs, config: config, in: database)
        }
    }
}

extension InputFormat: ExpressibleByArgument {}
