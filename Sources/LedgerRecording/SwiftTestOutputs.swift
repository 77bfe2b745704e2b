import Foundation
import LedgerCore
import LedgerImport
import LedgerStore

/// Stores what one `swift test` process left into its run: the journals of the library in the
/// tests, XCTest's console results (when SwiftPM wrote no xUnit file), then the event stream and
/// the xUnit files — each attempt `attemptOffset` later than they number it.
package struct SwiftTestOutputs {
    package var invocation: SwiftTestInvocation
    /// What XCTest printed.
    package var console: [XCTestConsoleParser.Result]
    package var run: String
    package var metadata: RunMetadata
    /// The attempts its tests had in the run before this process.
    package var attemptOffset = 0

    package init(
        invocation: SwiftTestInvocation, console: [XCTestConsoleParser.Result], run: String, metadata: RunMetadata,
        attemptOffset: Int = 0
    ) {
        self.invocation = invocation
        self.console = console
        self.run = run
        self.metadata = metadata
        self.attemptOffset = attemptOffset
    }

    /// Stores everything; `names` maps the console's `Class.test` to stable ids, asked only when
    /// the console is read.
    /// - Returns: the problems of the files that could not be stored, each naming its file.
    /// - Throws: what storing the journals' and the console's results throws.
    package func store(in database: LedgerDatabase, databasePath: String, names: () -> [String: String]) throws
        -> [String]
    {
        database.recoverPendingJournals(databasePath: databasePath)
        if !console.isEmpty, !FileManager.default.fileExists(atPath: invocation.xunit.path) {
            let names = names()
            try database.ingest { sink in
                try sink.offsettingAttempts(by: attemptOffset) {
                    try ConsoleResults.emit(console, run: run, names: names, into: &$0)
                }
            }
        }
        var problems: [String] = []
        for file in invocation.writtenOutputs() {
            do {
                _ = try Ingestion.ingest(
                    try InputFile.open(file), format: nil, metadata: metadata, runID: run,
                    attemptOffset: attemptOffset, into: database)
            } catch {
                problems.append("\(error)")
            }
        }
        return problems
    }
}
