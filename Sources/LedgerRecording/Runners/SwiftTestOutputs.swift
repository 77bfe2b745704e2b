import Foundation
import LedgerCore
import LedgerImport
import LedgerStore

/// Stores what one `swift test` process left into its run: the journals of the library in the
/// tests, XCTest's console results (when SwiftPM wrote no xUnit file), then the event stream and
/// the xUnit files — each attempt `attemptOffset` later than they number it, and stamped with
/// the process that ran it and the load while it ran, where its output does not say.
package struct SwiftTestOutputs {
    package var invocation: SwiftTestInvocation
    /// What `record` saw of the process: what XCTest printed, its id, the load.
    package var console: ConsoleCollector
    package var run: String
    package var metadata: RunMetadata
    /// The attempts its tests had in the run before this process.
    package var attemptOffset = 0

    package init(
        invocation: SwiftTestInvocation, console: ConsoleCollector, run: String, metadata: RunMetadata,
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
        let results = console.results
        if !results.isEmpty, !FileManager.default.fileExists(atPath: invocation.xunit.path) {
            let names = names()
            let stamp = console.stamp(slot: 0)
            try database.ingest { sink in
                try sink.offsettingAttempts(by: attemptOffset) {
                    try $0.stamping(stamp) { try ConsoleResults.emit(results, run: run, names: names, into: &$0) }
                }
            }
        }
        var problems: [String] = []
        for file in invocation.writtenOutputs() {
            // XCTest writes its xUnit file only under --parallel, which runs each test in a process.
            let isXCTests = file == invocation.xunit.path
            do {
                _ = try Ingestion.ingest(
                    try InputFile.open(file), format: nil, metadata: metadata, runID: run,
                    attemptOffset: attemptOffset, stamp: console.stamp(slot: isXCTests ? 2 : 1, eachOwn: isXCTests),
                    into: database)
            } catch {
                problems.append("\(error)")
            }
        }
        return problems
    }
}
