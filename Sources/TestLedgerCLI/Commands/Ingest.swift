import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerImport
import LedgerRecording
import LedgerStore

extension TestLedgerCommand {
    /// `testledger ingest FILE...`: stores what test runners wrote.
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ingest", abstract: "Store test results from files (or - for standard input).",
            discussion: """
                Reads \(InputFormat.summaries) and, where Xcode is installed, .xcresult bundles; the format \
                is detected. Each file is \
                stored in one transaction: a file that fails to parse stores nothing. Ingesting the \
                same file twice stores it once. A folder is read file by file, its subfolders too, \
                passing over files in no format testledger reads. On a terminal, progress is shown.
                """)

        @Argument(help: "Files, folders or .xcresult bundles to ingest; - reads standard input.")
        var files: [String]

        @Option(
            help:
                "The input format, when detection is not wanted: \(InputFormat.allCases.map(\.rawValue).joined(separator: ", "))."
        )
        var format: InputFormat?

        @Option(help: "Keep the attachments of .xcresult bundles in this folder (default: sizes only).")
        var attachments: String?

        @Option(
            help: ArgumentHelp(
                "How a JUnit testcase that repeats an earlier one's classname and name is read: retries (attempts of one test) or tests (a test of its own, stored as \"<id> (2)\").",
                discussion:
                    "Default: retries where the file marks them (fastlane trainer) or its tool writes retries so (gotestsum, go-junit-report, xcpretty, xcbeautify); tests elsewhere."
            ))
        var repeats: Repeats?

        @OptionGroup var store: StoreOptions
        @OptionGroup var runInfo: RunOptions

        func run() throws {
            let database = try store.open()
            let config = try ProjectConfiguration.load()
            let metadata = runInfo.metadata(config: config)
            var runs: [String] = []
            let inputs = try Self.expand(files)
            let progress = FilesProgress("ingest", totalBytes: inputs.reduce(0) { $0 + $1.size })
            defer { progress.finish() }
            for input in inputs {
                progress.begin(size: input.size)
                defer { progress.end() }
                let outcome: Ingestion.Outcome
                do {
                    outcome = try ingest(input, metadata: metadata, into: database)
                } catch let error as LedgerInputError where input.inFolder && error.isUndetectedFormat {
                    progress.warn("\(input.path): passed over, in no format testledger reads")
                    continue
                }
                let summary = outcome.summary
                for warning in summary.warnings { progress.warn("warning: \(warning)") }
                var line = "\(input.path): \(outcome.format.rawValue), \(summary.results) result(s) stored"
                if summary.alreadyStored > 0 { line += ", \(summary.alreadyStored) already stored" }
                if summary.crashed > 0 { line += ", \(summary.crashed) crashed" }
                line += runNames(summary.runs)
                progress.print(line)
                runs += summary.runs
            }
            progress.finish()
            try database.afterRunsStored(runs, policy: .checkout(config)).printQuarantineChanges()
        }
    }
}

extension TestLedgerCommand.Ingest {
    /// Ingests one file, or one result bundle.
    func ingest(_ input: Input, metadata: RunMetadata, into database: any ResultStore) throws -> Ingestion.Outcome {
        if XCResultBundle.isBundle(input.path) {
            let folder = attachments.map {
                URL(fileURLWithPath: $0).appending(path: URL(fileURLWithPath: input.path).lastPathComponent).path
            }
            return try Ingestion.ingest(
                XCResultBundle(path: input.path, attachmentsFolder: folder), metadata: metadata, into: database)
        }
        let file = try InputFile.open(input.path)
        defer { file.close() }
        return try Ingestion.ingest(file, format: format, metadata: metadata, repeats: repeats, into: database)
    }

    struct Input {
        var path: String
        var size: Int
        /// Found in a folder named on the command line, rather than named itself.
        var inFolder: Bool
    }

    /// The files named, each folder replaced by the files in it and its subfolders (hidden ones
    /// left out), sorted by path.
    static func expand(_ paths: [String]) throws -> [Input] {
        var inputs: [Input] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory.boolValue, !XCResultBundle.isBundle(path)
            else {
                inputs.append(Input(path: path, size: path == "-" ? 0 : FilesProgress.size(of: path), inFolder: false))
                continue
            }
            let folder = URL(fileURLWithPath: path)
            guard
                let walker = FileManager.default.enumerator(
                    at: folder, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey],
                    options: [.skipsHiddenFiles])
            else {
                throw LedgerInputError(source: path, problem: "cannot read the folder", fix: "check its permissions")
            }
            var found: [Input] = []
            for case let url as URL in walker {
                let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
                let bundle = XCResultBundle.isBundle(url.path)
                if bundle { walker.skipDescendants() }
                guard values?.isRegularFile == true || bundle else { continue }
                let relative = String(url.path.dropFirst(folder.path.count).drop { $0 == "/" })
                found.append(
                    Input(
                        path: (path.hasSuffix("/") ? path : path + "/") + relative, size: values?.fileSize ?? 0,
                        inFolder: true))
            }
            inputs += found.sorted { $0.path < $1.path }
        }
        return inputs
    }
}

extension InputFormat: ExpressibleByArgument {}
extension Repeats: ExpressibleByArgument {}
